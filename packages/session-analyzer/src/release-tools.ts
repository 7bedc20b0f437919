/**
 * The tool schemas DSH 0.1.0-rc.8 presents (native tools and Code Mode's `run_code`), parameters only: the known
 * schemas of the release that wrote a log, for the logs that record no tool list (DSH's normalized test logs write
 * `{{tools}}`). Data, not code: copied from the real host's first model request as captured in
 * `tests/fixtures/native-tool-schemas.json` and `tests/fixtures/code-tool-schemas.json` (DSH rc.8, see
 * `/work/shared/dsh-captures/README.md`), with descriptions dropped; `tests/release-tools.test.ts` checks the two stay equal.
 */
import type { ToolSchema } from '@dsh-tool-normalizer/core-rules';

export const RC8_TOOL_SCHEMAS: readonly ToolSchema[] = [
  {
    name: 'bash',
    parameters: {
      type: 'object',
      properties: {
        command: {
          type: 'string',
        },
        description: {
          type: 'string',
        },
        timeoutMs: {
          type: 'number',
        },
        workdir: {
          type: 'string',
        },
        run_in_background: {
          type: 'boolean',
        },
        sandbox_permissions: {
          type: 'string',
          enum: ['workspace-write', 'danger-full-access'],
        },
        justification: {
          type: 'string',
        },
      },
      required: ['command', 'description'],
    },
  },
  {
    name: 'create_goal',
    parameters: {
      type: 'object',
      properties: {
        objective: {
          type: 'string',
        },
        max_goal_rounds: {
          type: 'number',
        },
      },
      required: ['objective'],
    },
  },
  {
    name: 'edit',
    parameters: {
      type: 'object',
      properties: {
        file_path: {
          type: 'string',
        },
        old_string: {
          type: 'string',
        },
        new_string: {
          type: 'string',
        },
        replace_all: {
          type: 'boolean',
        },
        sandbox_permissions: {
          type: 'string',
          enum: ['workspace-write', 'danger-full-access'],
        },
        justification: {
          type: 'string',
        },
      },
      required: ['file_path', 'old_string', 'new_string'],
    },
  },
  {
    name: 'exit_plan_mode',
    parameters: {
      type: 'object',
      properties: {
        plan: {
          type: 'string',
        },
      },
      required: ['plan'],
    },
  },
  {
    name: 'get_goal',
    parameters: {
      type: 'object',
      properties: {},
    },
  },
  {
    name: 'glob',
    parameters: {
      type: 'object',
      properties: {
        pattern: {
          type: 'string',
        },
        path: {
          type: 'string',
        },
      },
      required: ['pattern'],
    },
  },
  {
    name: 'grep',
    parameters: {
      type: 'object',
      properties: {
        pattern: {
          type: 'string',
        },
        path: {
          type: 'string',
        },
        include: {
          type: 'string',
        },
      },
      required: ['pattern'],
    },
  },
  {
    name: 'interrupt_agent',
    parameters: {
      type: 'object',
      properties: {
        agent_id: {
          type: 'string',
        },
      },
      required: ['agent_id'],
    },
  },
  {
    name: 'job_kill',
    parameters: {
      type: 'object',
      properties: {
        job_id: {
          type: 'string',
        },
        reason: {
          type: 'string',
        },
      },
      required: ['job_id'],
    },
  },
  {
    name: 'job_list',
    parameters: {
      type: 'object',
      properties: {},
    },
  },
  {
    name: 'job_output',
    parameters: {
      type: 'object',
      properties: {
        job_id: {
          type: 'string',
        },
        wait: {
          type: 'boolean',
        },
        timeout_ms: {
          type: 'number',
        },
      },
      required: ['job_id'],
    },
  },
  {
    name: 'list_agents',
    parameters: {
      type: 'object',
      properties: {
        scope: {
          type: 'string',
          enum: ['children', 'descendants'],
        },
      },
    },
  },
  {
    name: 'ralph',
    parameters: {
      type: 'object',
      properties: {
        objective: {
          type: 'string',
        },
        maxRounds: {
          type: 'number',
        },
      },
      required: ['objective'],
    },
  },
  {
    name: 'read',
    parameters: {
      type: 'object',
      properties: {
        file_path: {
          type: 'string',
        },
        offset: {
          type: 'number',
        },
        limit: {
          type: 'number',
        },
      },
      required: ['file_path'],
    },
  },
  {
    name: 'read_image',
    parameters: {
      type: 'object',
      properties: {
        file_path: {
          type: 'string',
        },
      },
      required: ['file_path'],
    },
  },
  {
    name: 'send_message',
    parameters: {
      type: 'object',
      properties: {
        subagent_id: {
          type: 'string',
        },
        message: {
          type: 'string',
        },
      },
      required: ['subagent_id', 'message'],
    },
  },
  {
    name: 'skill',
    parameters: {
      type: 'object',
      properties: {
        name: {
          type: 'string',
        },
      },
      required: ['name'],
    },
  },
  {
    name: 'str_replace_editor',
    parameters: {
      type: 'object',
      properties: {
        command: {
          type: 'string',
          enum: ['view', 'create', 'str_replace', 'insert'],
        },
        path: {
          type: 'string',
        },
        file_text: {
          type: 'string',
        },
        insert_line: {
          type: 'integer',
        },
        new_str: {
          type: 'string',
        },
        old_str: {
          type: 'string',
        },
        view_range: {
          type: 'array',
          items: {
            type: 'integer',
          },
        },
      },
      required: ['command', 'path'],
    },
  },
  {
    name: 'subagent',
    parameters: {
      type: 'object',
      properties: {
        description: {
          type: 'string',
        },
        prompt: {
          type: 'string',
        },
        run_in_background: {
          type: 'boolean',
        },
      },
      required: ['description', 'prompt'],
    },
  },
  {
    name: 'subagent_fork',
    parameters: {
      type: 'object',
      properties: {
        description: {
          type: 'string',
        },
        prompt: {
          type: 'string',
        },
        run_in_background: {
          type: 'boolean',
        },
      },
      required: ['description', 'prompt'],
    },
  },
  {
    name: 'todo_write',
    parameters: {
      type: 'object',
      properties: {
        todos: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            properties: {
              content: {
                type: 'string',
              },
              status: {
                type: 'string',
                enum: ['pending', 'in_progress', 'completed'],
              },
            },
            required: ['content', 'status'],
          },
        },
      },
      required: ['todos'],
    },
  },
  {
    name: 'update_goal',
    parameters: {
      type: 'object',
      properties: {
        goal_id: {
          type: 'string',
        },
        revision: {
          type: 'number',
        },
        action: {
          type: 'string',
          enum: ['edit', 'pause', 'resume', 'complete', 'blocked'],
        },
        objective: {
          type: 'string',
        },
        max_goal_rounds: {
          type: 'number',
        },
        blocked_reason: {
          type: 'string',
        },
      },
      required: ['goal_id', 'revision', 'action'],
    },
  },
  {
    name: 'web_search',
    parameters: {
      type: 'object',
      properties: {
        queries: {
          type: 'array',
          items: {
            type: 'string',
          },
        },
      },
      required: ['queries'],
    },
  },
  {
    name: 'workflow',
    parameters: {
      type: 'object',
      properties: {
        script: {
          type: 'string',
        },
        meta: {
          type: 'object',
          additionalProperties: true,
          properties: {
            name: {
              type: 'string',
            },
            description: {
              type: 'string',
            },
            whenToUse: {
              type: 'string',
            },
            phases: {
              type: 'array',
              items: {
                type: 'object',
                additionalProperties: true,
                properties: {
                  title: {
                    type: 'string',
                  },
                  detail: {
                    type: 'string',
                  },
                  provider: {
                    type: 'string',
                  },
                  model: {
                    type: 'string',
                  },
                },
                required: ['title'],
              },
            },
          },
          required: ['name', 'description'],
        },
        args: {
          type: 'object',
          additionalProperties: true,
        },
      },
      required: ['script', 'meta'],
    },
  },
  {
    name: 'write',
    parameters: {
      type: 'object',
      properties: {
        file_path: {
          type: 'string',
        },
        content: {
          type: 'string',
        },
        sandbox_permissions: {
          type: 'string',
          enum: ['workspace-write', 'danger-full-access'],
        },
        justification: {
          type: 'string',
        },
      },
      required: ['file_path', 'content'],
    },
  },
  {
    name: 'run_code',
    parameters: {
      type: 'object',
      properties: {
        code: {
          type: 'string',
        },
        description: {
          type: 'string',
        },
      },
      required: ['code', 'description'],
    },
  },
];
