/**
 * Copy of the options card in Plugins > Plugin configuration, English and Chinese, registered with DSH's locale
 * service under its own namespace (the Settings page owns `tool-normalizer`). Option descriptions say the same as
 * the typebox `ConfigSchema` in dsh-adapter, in the user's words. The English label and hint of each rule switch
 * are its row in core-rules' `switchCatalogue`; the Chinese card is typed against them, so a new switch without its
 * translation does not compile.
 */
import { type SwitchId, switchCatalogue } from '@dsh-tool-normalizer/core-rules/catalogue';

export const OPTIONS_NS = 'tool-normalizer.options';

/** Each rule switch's label (`<id>`) and hint (`<id>Hint`), from the catalogue. */
const switchMessages = Object.fromEntries(
  switchCatalogue.flatMap((row) => [
    [row.id, row.label],
    [`${row.id}Hint`, row.hint],
  ]),
) as { [K in SwitchId | `${SwitchId}Hint`]: string };

export const en = {
  title: 'Tool Normalizer',
  description:
    'Repairs failing tool calls, recovers what is safe and hints the rest. Changes apply to the next tool call.',
  ...switchMessages,
  trimStackTraces: 'Trim stack traces',
  trimStackTracesHint:
    'Removes stack-frame lines pointing into node_modules/.pnpm or worker internals from error text.',
  overridden: 'Changed',
  reset: 'Reset',
  unsaved: 'Unsaved',
  save: 'Save',
  saving: 'Saving…',
  discard: 'Discard',
  saveFailed: 'DSH did not store every change; the unsaved ones are kept.',
  readOnly: 'This settings document is read-only.',
  setInConfig:
    'This DSH does not serve these options for editing here. Shown are the values in effect; set them in settings.yaml (DSH up to 0.1.7-rc.1) or in the "tool-normalizer" row of the profile config (cordis.patch.yml), then restart.',
  restartNote:
    'Other options (storage, web routes, metrics, the prompt section) are set in the plugin row of cordis.patch.yml and apply after a restart.',
  expand: 'Expand',
  collapse: 'Collapse',
};

export type OptionsMessages = typeof en;
export type OptionsMessageKey = keyof OptionsMessages;

export const zh: OptionsMessages = {
  title: '工具调用修复',
  description: '修复失败的工具调用，安全时自动恢复，其余附上提示。更改对下一次工具调用生效。',
  autoWrapRunCode: '修复 run_code 调用',
  autoWrapRunCodeHint: '把 {command}/{cmd} 改为 {code}，补上缺失的 description，修复带代码围栏或损坏的程序。',
  autoBridgeDirectTools: 'Code Mode 下桥接直接调用',
  autoBridgeDirectToolsHint: '对可见工具的直接调用改为 run_code 调用，而不是报“未知工具”。',
  autoObserveFiles: '编辑前读取未读文件',
  autoObserveFilesHint: '编辑未读文件时先读取再重试一次；覆盖未读文件时把文件内容随错误一起显示。',
  autoClampRanges: '截断查看范围',
  autoClampRangesHint: 'str_replace_editor 的 view_range 超出文件末尾时截断到文件范围内。',
  errorHints: '错误提示',
  errorHintsHint: '为无法修复的错误附加一条可操作的提示。',
  breakLoops: '打破失败循环',
  breakLoopsHint: '同样的失败再次出现时提示必须改变什么；第三次起提示换一种做法。',
  trimStackTraces: '精简堆栈',
  trimStackTracesHint: '从错误文本中删除指向 node_modules/.pnpm 或 worker 内部的堆栈行。',
  overridden: '已修改',
  reset: '重置',
  unsaved: '未保存',
  save: '保存',
  saving: '正在保存…',
  discard: '放弃',
  saveFailed: 'DSH 没有保存全部更改；未保存的更改已保留。',
  readOnly: '此设置文档为只读。',
  setInConfig:
    '此 DSH 不在这里提供这些选项的编辑。下面是当前生效的值；请在 settings.yaml（DSH 0.1.7-rc.1 及更早）或配置文件 cordis.patch.yml 的 "tool-normalizer" 插件行中设置，然后重启。',
  restartNote: '其他选项（存储、Web 路由、指标、提示词段落）在 cordis.patch.yml 的插件行中设置，重启后生效。',
  expand: '展开',
  collapse: '收起',
};
