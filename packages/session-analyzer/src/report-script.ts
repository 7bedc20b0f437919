/**
 * The one script of the `--html` page: it filters the Failures table by code, tool and prediction and pages it 50
 * rows at a time with a count ("showing 50 of 500"), offline (the page opens from a file). It is inline and fixed:
 * it reads the rows' `data-*` attributes and sets `hidden` and `textContent` only, never markup. The page's
 * Content-Security-Policy allows this exact script by its SHA-256 hash and nothing else, so even a log text that
 * got past escaping could not run. Without script the controls stay hidden and every row shows.
 */

export const FAILURES_PAGE_ROWS = 50;

export const FAILURE_FILTER_SCRIPT = `(() => {
  const box = document.getElementById('failures');
  if (!box) return;
  const rows = [...box.querySelectorAll('tbody tr')];
  const selects = [...box.querySelectorAll('select')];
  const count = box.querySelector('.count');
  const prev = box.querySelector('button.prev');
  const next = box.querySelector('button.next');
  const size = ${FAILURES_PAGE_ROWS};
  let page = 0;
  const show = () => {
    const wanted = selects.map((select) => [select.name, select.value]);
    const matching = rows.filter((row) => wanted.every(([key, value]) => value === '' || row.dataset[key] === value));
    const pages = Math.max(1, Math.ceil(matching.length / size));
    page = Math.max(0, Math.min(page, pages - 1));
    const from = page * size;
    const shown = new Set(matching.slice(from, from + size));
    for (const row of rows) row.hidden = !shown.has(row);
    const filtered = matching.length < rows.length ? ' matching the filters (of ' + rows.length + ')' : '';
    count.textContent = 'showing ' + shown.size + ' of ' + matching.length + filtered +
      (pages > 1 ? ', page ' + (page + 1) + ' of ' + pages : '');
    prev.disabled = page === 0;
    next.disabled = page >= pages - 1;
  };
  for (const select of selects) select.addEventListener('change', () => { page = 0; show(); });
  prev.addEventListener('click', () => { page -= 1; show(); });
  next.addEventListener('click', () => { page += 1; show(); });
  box.querySelector('.controls').hidden = false;
  show();
})();`;

/** `'sha256-…'` of {@link FAILURE_FILTER_SCRIPT} for the page's CSP (a test recomputes it from the text). */
export const FAILURE_FILTER_SCRIPT_HASH = "'sha256-bMmE+6CDU7CCAvPCycxVvJtWCy9GP3JhnBoOjgTi798='";
