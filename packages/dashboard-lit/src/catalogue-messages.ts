/**
 * The catalogue's words in the dashboard's languages. Rule titles and descriptions arrive in English with the
 * payload (core-rules' `ruleCatalogue`, served by the adapter); this file holds their Chinese, keyed by rule id,
 * and the result categories' labels in both languages (the payload carries only category ids). A rule without a
 * Chinese row shows its English text; `tests/catalogue-messages.test.ts` names every catalogue id that lacks one.
 */
import type { SupportedLocale } from './messages.js';

export interface RuleText {
  title: string;
  description: string;
}

export const ruleTextsZh: Readonly<Record<string, RuleText>> = {
  'args.unwrap-double-encoded': {
    title: '解开双重编码的参数',
    description: '参数以 JSON 字符串套在 JSON 字符串里发送时，解码后的对象通过 schema 校验才会解开。',
  },
  'args.unwrap-fenced-json': {
    title: '解开代码围栏里的 JSON 参数',
    description: '参数包在 ```json 围栏里发送时，解码后的对象通过 schema 校验才会解开。',
  },
  'args.rename-alias': {
    title: '重命名别名键',
    description:
      '必填键以 schema 能一一对应的别名发送时（cmd -> command、path -> file_path、edit 的 old_str -> old_string）会被改名；有歧义的别名不动。',
  },
  'args.fill-description': {
    title: '补上缺失的 description',
    description: '缺失或为空的必填显示说明（bash、subagent）由调用的其他参数生成，生成前先脱敏明显的密钥。',
  },
  'run_code.command-to-code': {
    title: 'command -> code',
    description:
      'run_code 把内容放在 command/cmd/script 里发送时：能像宿主一样编译、不能当 shell 运行的程序改为 code；shell 命令改为通过 tools.bash 执行它的程序。',
  },
  'run_code.fill-description': {
    title: '补上 run_code 的 description',
    description: '缺失或为空的 run_code description 取自程序开头的注释，否则取自它调用的工具。',
  },
  'run_code.heal-syntax': {
    title: '修复程序语法',
    description: 'Markdown 围栏和机械性的语法损坏由语法修复器修复，并像宿主编译一样验证；被截断的内容绝不凭空补写。',
  },
  'run_code.inner-fill-description': {
    title: '补上内部调用的 description',
    description: '缺少必填 description 的 tools.x({...}) 字面量会被插入一条；程序的其他字节全部保留。',
  },
  'code.bridge-direct-call': {
    title: '桥接 Code Mode 直接调用',
    description: '在 Code Mode 中直接调用只在 run_code 内可见的工具时，改为恰好执行这次调用的 run_code 程序。',
  },
  'editor.absolute-path': {
    title: '编辑器绝对路径',
    description: 'str_replace_editor 的相对路径按会话的工作目录解析；绝不超出该目录，没有工作目录时不处理。',
  },
  'editor.view-range-shape': {
    title: '规整 view_range',
    description:
      '纯整数字符串改为数字，"1,20"/"1-20"/"12"/{start,end} 改为数对，[n] 改为 [n, n]，起始 0 改为 1，颠倒的数对会交换；-1 保持不变；负数起点、带空格（" 5"）或前导零（"010"）的数字绝不改动。',
  },
  'args.repair-near-json': {
    title: '修复近似 JSON 的参数',
    description:
      '带尾随逗号、单引号、未加引号的键或字符串中裸换行的参数文本，仅当每个字符串的字符完全保留且结果通过 schema 校验时才用 jsonrepair 读取；被截断的文本、注释、非 JSON 的反斜杠转义、单引号值中的引号、重复键和超过 256 KB 的文本一律拒绝。',
  },
  'args.drop-null-optional': {
    title: '丢弃为 null 的可选参数',
    description: '可选参数的 schema 不接受 null 却发送了 null 时，丢弃该参数，由宿主使用默认值。',
  },
  'run_code.inner-rename-alias': {
    title: '重命名内部调用的别名键',
    description:
      'tools.x({...}) 字面量以别名发送必填键时（read({path}) 代替 file_path），程序运行前在程序中把该键改名，仅限一一对应；其余每个字节保持不变。',
  },
  'args.strip-dsml-markup': {
    title: '参数中的 DSML 标记',
    description:
      '参数文本因 DeepSeek 的 DSML 标记泄漏而不是 JSON（vLLM/SGLang 解析器遗漏）：DSML 参数变为它们所表示的对象，包住单个 JSON 对象的多余 DSML 标签被去掉；有效的 JSON 从不改动。',
  },
  'args.strip-edge-nul': {
    title: '命令或路径首尾的 NUL 字节',
    description:
      'bash 命令或文件路径开头或结尾的 NUL 字节（任何系统调用都不接受）被去掉；文本中间的 NUL 留给宿主处理。',
  },
  'args.wrap-scalar-in-list': {
    title: '列表只给了一个值',
    description:
      'schema 要求列表却只给了一个值（"queries": "rust async runtime"）时，若由该值组成的列表通过 schema，则改为该列表；读起来像 JSON 列表的文本则按列表解析。',
  },
  'args.parse-object-text': {
    title: '以 JSON 文本发送的对象',
    description:
      'schema 要求对象或列表，却以 JSON 文本或一个围栏中的 JSON 值发送（meta 以文本 {"name": ...} 发送）时，若文本恰好是一个该类型的 JSON 值，则在任意层级改为该值；普通文字不变。',
  },
  'args.coerce-scalar': {
    title: '无损的标量形式',
    description:
      '字符串恰好是声明类型的标准文本时（整数的 "10"、布尔值的 "true"、列表的 "[...]"；无填充、无前导零），改为该值。',
  },
  'call.dsml-text-to-call': {
    title: '留在消息文本中的 DSML 工具调用',
    description:
      '模型文本中留下一整段 DeepSeek DSML 工具调用块而没有工具调用时（vLLM/SGLang 解析器遗漏），仅当该块完整、工具只以一个名称存在且参数通过全部检查时，才变为它所指的调用；该块从文本中移除，其余不变。',
  },
  'call.strip-name-prefix': {
    title: '去掉提供方的名称前缀',
    description: '工具名带提供方前缀发送时（functions.read、default_api.bash），按其注册名调用。',
  },
  'recover.observe-then-retry': {
    title: '先读取，再重试',
    description:
      'edit 或 str_replace_editor（其锚点证明模型知道文件内容）报 FS_NOT_OBSERVED 后，用代理可见的工具读取该文件，然后把同一调用重试一次。',
  },
  'recover.stale-refresh': {
    title: '刷新已过期的文件',
    description:
      '带锚点的编辑报 FS_STALE_VERSION 后会重新读取文件，但绝不重新执行该编辑；模型会被告知重新读取。write、insert 或 create 不刷新（盲目重发会覆盖模型没看过的内容）。',
  },
  'recover.view-range-clamp': {
    title: '把 view_range 截到文件范围',
    description: 'view_range 超出文件末尾时，按错误报告的行数截断后重试一次。',
  },
  'recover.unknown-tool-alias': {
    title: '未知工具的别名',
    description: '没有在任何地方注册、且只有一个明显目标（参数符合其 schema）的名称，改用该工具重试。',
  },
  'recover.retry-repaired-args': {
    title: '用修复后的参数重试',
    description: '因参数被拒（什么都没执行）的调用，例如 Code Mode 的内部子调用，用修复后的参数重试一次。',
  },
  'hint.error-hints': {
    title: '可操作的错误提示',
    description: '无人修复的错误保留原文，并附加一句话：缺少的字段、可直接粘贴的重发调用，或程序出错的位置。',
  },
  'recover.observe-before-write': {
    title: '写入前显示文件',
    description:
      'write 或 str_replace_editor insert/create 报 FS_NOT_OBSERVED 后，通过宿主读取该文件（真实的读取），但绝不重试该调用：模型得到原始错误、文件当前内容（有长度上限，与 read 显示的一致）以及“如仍需要请重发”的提示。仅在 errorHints 开启时生效；关闭提示时不读取也不显示。',
  },
  'hint.repeat-failure': {
    title: '打破重试循环',
    description:
      '相同的失败（同一工具、规范化参数、错误码）按会话计数：第 2 次保留宿主的错误并指出必须改变什么；从第 3 次起告诉模型换一种做法或询问用户。',
  },
};

/** Result category labels (core-rules' `categoryCatalogue` labels in English), by category id. */
export const categoryLabels: Readonly<Record<SupportedLocale, Readonly<Record<string, string>>>> = {
  en: {
    ok: 'Succeeded',
    'invalid-args': 'Invalid arguments',
    'code-mode-direct-call': 'Code Mode direct call',
    'unknown-tool': 'Unknown tool',
    'code-syntax': 'Program does not compile',
    'inner-invalid-args': 'Inner call: invalid arguments',
    'inner-unknown-binding': 'Inner call: no such tool',
    'fs-not-observed': 'File not read before writing',
    'fs-stale-version': 'File changed since read',
    'editor-path': 'Editor: relative path',
    'editor-range': 'Editor: view_range',
    'read-range': 'Read: offset past end',
    'fs-edit-anchor': 'Edit anchor not found or ambiguous',
    'inner-tool-error': 'Inner call failed',
    'code-runtime': 'Program failed at run time',
    aborted: 'Cancelled',
    other: 'Other error',
  },
  zh: {
    ok: '成功',
    'invalid-args': '参数无效',
    'code-mode-direct-call': 'Code Mode 直接调用',
    'unknown-tool': '未知工具',
    'code-syntax': '程序无法编译',
    'inner-invalid-args': '内部调用：参数无效',
    'inner-unknown-binding': '内部调用：没有该工具',
    'fs-not-observed': '写入前未读取文件',
    'fs-stale-version': '读取后文件已变化',
    'editor-path': '编辑器：相对路径',
    'editor-range': '编辑器：view_range',
    'read-range': '读取：偏移超出末尾',
    'fs-edit-anchor': '编辑锚点未找到或有歧义',
    'inner-tool-error': '内部调用失败',
    'code-runtime': '程序运行时失败',
    aborted: '已取消',
    other: '其他错误',
  },
};

/** The category's label in `locale`; an id the dictionary does not know shows as itself. */
export function categoryLabel(locale: SupportedLocale, id: string): string {
  return categoryLabels[locale][id] ?? id;
}

/** The rule's title and description in `locale`: English from the payload, Chinese from `ruleTextsZh`. */
export function ruleText(locale: SupportedLocale, rule: { id: string; title: string; description: string }): RuleText {
  if (locale === 'zh') {
    const zh = ruleTextsZh[rule.id];
    if (zh) return zh;
  }
  return { title: rule.title, description: rule.description };
}
