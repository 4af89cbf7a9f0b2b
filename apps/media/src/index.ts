export { createMediaService } from './create-media';
export { interactionRegistry } from './interaction-registry';
