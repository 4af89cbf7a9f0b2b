export { MediaAppModule } from './media.module';
export { createMediaService } from './create-media';
export { interactionRegistry } from './interaction-registry';
