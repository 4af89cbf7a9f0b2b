export { VideoAppModule } from './video.module';
