/**
 * The video task lookups over gRPC (video.proto): the video service's handler and the edge's client.
 * Tasks travel as JSON checked against the contracts schema on the client side.
 */
import { videoTaskSchema, type VideoTask, type VideoTaskPort } from '@unigate/contracts';
import type {
  GetTaskRequest__Output,
  ListTasksRequest__Output,
  TaskList__Output,
  TaskReply__Output,
  VideoServiceHandlers,
} from '@unigate/proto';
import { CONTROL_CALL, grpcClient, unary } from './grpc-client';
import { unaryHandler } from './grpc-server';
import { decodeJson, encodeJson } from './wire-json';

export function videoTaskHandlers(port: VideoTaskPort): VideoServiceHandlers {
  return {
    GetTask: unaryHandler(async (req: GetTaskRequest__Output) => ({ task: encodeJson(await port.lookup(req.account_id, req.id)) })),
    GetWebhookSecret: unaryHandler(async (req: { account_id: string }) => ({ secret: await port.webhookSecret(req.account_id) })),
    ListTasks: unaryHandler(async (req: ListTasksRequest__Output) => ({
      tasks: (await port.recent(req.account_id, req.limit)).map(encodeJson),
    })),
  };
}

export class GrpcVideoTaskClient implements VideoTaskPort {
  private readonly client;

  constructor(url: string) {
    this.client = grpcClient('video', url);
  }

  async lookup(accountId: string, id: string): Promise<VideoTask> {
    const reply = await unary<object, TaskReply__Output>(
      this.client.GetTask.bind(this.client),
      { account_id: accountId, id },
      CONTROL_CALL,
    );
    return decodeJson(videoTaskSchema, reply.task, 'video task', 'peer');
  }

  async recent(accountId: string, limit: number): Promise<VideoTask[]> {
    const reply = await unary<object, TaskList__Output>(
      this.client.ListTasks.bind(this.client),
      { account_id: accountId, limit },
      CONTROL_CALL,
    );
    return reply.tasks.map((task) => decodeJson(videoTaskSchema, task, 'video task', 'peer'));
  }

  async webhookSecret(accountId: string): Promise<string> {
    const reply = await unary<object, { secret: string }>(
      this.client.GetWebhookSecret.bind(this.client),
      { account_id: accountId },
      CONTROL_CALL,
    );
    return reply.secret;
  }
}
