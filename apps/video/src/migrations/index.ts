import { VideoTasks1738000000000 } from './1738000000000-video-tasks';
import { TasksByAccount1739000000000 } from './1739000000000-tasks-by-account';
import { ChannelKeysAtRest1739500000000 } from './1739500000000-channel-keys-at-rest';
import { TaskOrigin1739600000000 } from './1739600000000-task-origin';

/** Every video migration, oldest first (classes, so bundling and tests need no globbing). */
export const VIDEO_MIGRATIONS = [
  VideoTasks1738000000000,
  TasksByAccount1739000000000,
  ChannelKeysAtRest1739500000000,
  TaskOrigin1739600000000,
];
