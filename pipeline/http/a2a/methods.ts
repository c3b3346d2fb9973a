import { href } from '../../paths.ts';
import { V03 } from './v03.ts';
import { V10 } from './v10.ts';
import { A2A_ERROR, problem, type Binding, type Problem } from './wire.ts';

// Every JSON-RPC method of both A2A generations and how /a2a answers it. The agent answers each
// message at once with a Message, so it keeps no tasks, does not stream and sends no push
// notifications: the task methods are answered with the error A2A defines for each case, not
// "method not found", so a client learns why rather than that it mistyped.

export type MethodAnswer = { kind: 'send' } | { kind: 'result'; value: unknown } | { kind: 'error'; problem: Problem };

const NO_TASKS = problem(
  A2A_ERROR.taskNotFound,
  'TASK_NOT_FOUND',
  'Task not found: this agent creates no tasks; every message is answered at once with a Message.',
);
const NO_STREAMING = (send: string) =>
  problem(
    A2A_ERROR.unsupportedOperation,
    'UNSUPPORTED_OPERATION',
    `This agent does not stream (capabilities.streaming is false): send the same request with ${send}.`,
  );
const NO_PUSH = problem(
  A2A_ERROR.pushNotificationNotSupported,
  'PUSH_NOTIFICATION_NOT_SUPPORTED',
  'Push notifications are not supported (capabilities.pushNotifications is false): every answer comes in the response.',
);
const NO_EXTENDED_CARD = problem(
  A2A_ERROR.extendedCardNotConfigured,
  'EXTENDED_AGENT_CARD_NOT_CONFIGURED',
  `There is no extended agent card: the public card at ${href('agent_card')} is the whole card, for everyone.`,
);

const SEND: MethodAnswer = { kind: 'send' };
const refuse = (answer: Problem): MethodAnswer => ({ kind: 'error', problem: answer });

export const METHODS: ReadonlyMap<string, { binding: Binding; answer: MethodAnswer }> = new Map([
  ...(
    [
      ['SendMessage', SEND],
      ['SendStreamingMessage', refuse(NO_STREAMING('SendMessage'))],
      ['GetTask', refuse(NO_TASKS)],
      // The truthful list: there are none (ListTasksResponse, every member required).
      ['ListTasks', { kind: 'result', value: { tasks: [], nextPageToken: '', pageSize: 0, totalSize: 0 } }],
      ['CancelTask', refuse(NO_TASKS)],
      ['SubscribeToTask', refuse(NO_TASKS)],
      ['CreateTaskPushNotificationConfig', refuse(NO_PUSH)],
      ['GetTaskPushNotificationConfig', refuse(NO_PUSH)],
      ['ListTaskPushNotificationConfigs', refuse(NO_PUSH)],
      ['DeleteTaskPushNotificationConfig', refuse(NO_PUSH)],
      ['GetExtendedAgentCard', refuse(NO_EXTENDED_CARD)],
    ] as const
  ).map(([name, answer]) => [name, { binding: V10, answer }] as const),
  ...(
    [
      ['message/send', SEND],
      ['message/stream', refuse(NO_STREAMING('message/send'))],
      ['tasks/get', refuse(NO_TASKS)],
      ['tasks/cancel', refuse(NO_TASKS)],
      ['tasks/resubscribe', refuse(NO_TASKS)],
      ['tasks/pushNotificationConfig/set', refuse(NO_PUSH)],
      ['tasks/pushNotificationConfig/get', refuse(NO_PUSH)],
      ['tasks/pushNotificationConfig/list', refuse(NO_PUSH)],
      ['tasks/pushNotificationConfig/delete', refuse(NO_PUSH)],
      ['agent/getAuthenticatedExtendedCard', refuse(NO_EXTENDED_CARD)],
    ] as const
  ).map(([name, answer]) => [name, { binding: V03, answer }] as const),
]);

/** The protocol versions /a2a speaks, as A2A-Version names them (Major.Minor). */
export const VERSIONS = [V10.version, V03.version] as const;

/**
 * The version a request asks for (A2A 1.0 section 3.6: the A2A-Version header, or the same
 * name as a query parameter; none or empty means 0.3), or null when it names one this agent
 * does not speak. A patch number takes no part in it.
 */
export function requestedVersion(request: Request): string | null {
  const named = request.headers.get('a2a-version') ?? new URL(request.url).searchParams.get('A2A-Version') ?? '';
  const value = named.trim();
  if (value === '') return V03.version;
  const match = /^(\d+)\.(\d+)(?:\.\d+)?$/.exec(value);
  if (match === null) return null;
  const version = `${Number(match[1])}.${Number(match[2])}`;
  return (VERSIONS as readonly string[]).includes(version) ? version : null;
}
