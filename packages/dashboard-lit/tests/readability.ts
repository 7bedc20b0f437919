/**
 * What makes a narrow dashboard unreadable, measured in the page: one in-page function shared by the element's own
 * browser tests (a test page) and the real DSH web UI's Settings dialog (apps/dsh-lab), so both hold the same bar.
 * Pass it to Playwright: `locator('tn-dashboard').evaluate(readabilityProblems, [minCodeChars, minTextShare])`.
 * It must stay self-contained (Playwright sends its source text to the page).
 *
 * Found: anything wider than the element, or a page, `#frame` or the element scrolling sideways; a word of prose
 * spread over two lines although it fits on one; an identifier (in `code`) broken inside a part rather than after
 * `.`, `-`, `_`, `/`, `:` or before a camelCase word; a code block with room for fewer than `minCodeChars`
 * characters a line; a paragraph narrower than `minTextShare` of the element's content.
 */
export function readabilityProblems(host: Element, [minChars, minShare]: readonly [number, number]): string[] {
  const root = host.shadowRoot as ShadowRoot;
  const found: string[] = [];
  const style = getComputedStyle(host);
  const content = host.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
  const edge = host.getBoundingClientRect().right;
  for (const element of root.querySelectorAll<HTMLElement>('*'))
    if (!element.closest('thead') && element.getBoundingClientRect().right > edge + 0.5)
      found.push(`wider than the element: ${element.tagName.toLowerCase()}.${element.className}`);
  for (const box of [document.documentElement, document.getElementById('frame'), host])
    if (box && box.scrollWidth > box.clientWidth + 1)
      found.push(`scrolls sideways: ${box.id || box.tagName} ${box.scrollWidth} > ${box.clientWidth}`);
  const lineBox = (node: Node) => {
    const block = node.parentElement?.closest<HTMLElement>(
      'p, li, dd, dt, td, button, label, h2, h3, caption, div, span.badge',
    );
    if (!block) return Number.POSITIVE_INFINITY;
    const s = getComputedStyle(block);
    return block.clientWidth - Number.parseFloat(s.paddingLeft) - Number.parseFloat(s.paddingRight);
  };
  const linesOf = (node: Node, start: number, end: number) => {
    const range = document.createRange();
    range.setStart(node, start);
    range.setEnd(node, end);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0);
    return {
      lines: new Set(rects.map((r) => Math.round(r.top))).size,
      width: rects.reduce((w, r) => w + r.width, 0),
    };
  };
  // prose: a word (whitespace or a hyphen ends one) breaks only when it is wider than its line box
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest('pre, .diff, code, thead, [hidden], option, style')) continue;
    for (const match of (node.textContent ?? '').matchAll(/[^\s\-\u2e80-\u9fff\u3000-\u303f\uff00-\uffef]{2,}/g)) {
      const { lines, width } = linesOf(node, match.index, match.index + match[0].length);
      if (lines > 1 && width <= lineBox(node)) found.push(`"${match[0]}" breaks mid-word`);
    }
  }
  // identifiers: between their parts only (a part longer than a line may break)
  for (const code of root.querySelectorAll<HTMLElement>('code')) {
    if (code.closest('pre, .diff, thead')) continue;
    const chars: { node: Text; index: number }[] = [];
    const texts = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
    for (let t = texts.nextNode() as Text | null; t; t = texts.nextNode() as Text | null)
      for (let i = 0; i < t.data.length; i++) chars.push({ node: t, index: i });
    let previousTop: number | undefined;
    const text = chars.map(({ node, index }) => node.data[index]).join('');
    chars.forEach(({ node, index }, i) => {
      const top = Math.round(
        linesOf(node, index, index + 1).width > 0
          ? (() => {
              const r = document.createRange();
              r.setStart(node, index);
              r.setEnd(node, index + 1);
              return r.getClientRects()[0]?.top ?? 0;
            })()
          : Number.NaN,
      );
      if (Number.isNaN(top)) return;
      if (previousTop !== undefined && top > previousTop + 2) {
        const before = text[i - 1] ?? '';
        const at = text[i] ?? '';
        const between = /[._\-/:\s]/.test(before) || (/[a-z0-9]/.test(before) && /[A-Z]/.test(at));
        if (!between) found.push(`identifier "${text}" breaks inside a part, before "${text.slice(i, i + 6)}"`);
      }
      previousTop = top;
    });
  }
  // code blocks: room for some characters a line
  for (const block of root.querySelectorAll<HTMLElement>('pre, .diff')) {
    if (block.getBoundingClientRect().width === 0) continue;
    const probe = document.createElement('span');
    probe.textContent = '0000000000';
    probe.style.cssText = 'display: inline-block; white-space: nowrap';
    block.append(probe);
    const ch = probe.getBoundingClientRect().width / 10;
    probe.remove();
    const s = getComputedStyle(block);
    const room = block.clientWidth - Number.parseFloat(s.paddingLeft) - Number.parseFloat(s.paddingRight);
    if (room / ch < minChars)
      found.push(
        `${block.tagName.toLowerCase()}.${block.className}${[...block.attributes].map((a) => `[${a.name}]`).join('')}: ${Math.floor(room / ch)} characters a line (${Math.round(room)} px)`,
      );
  }
  // paragraphs and hints: not squeezed by nesting
  for (const block of root.querySelectorAll<HTMLElement>(
    'p, .rule .hint, .kpi .hint, td.cell-previews, td.cell-error',
  )) {
    const width = block.getBoundingClientRect().width;
    if (width > 0 && width < content * minShare)
      found.push(
        `${block.tagName.toLowerCase()}.${block.className}: ${Math.round(width)} of ${Math.round(content)} px`,
      );
  }
  return found;
}
