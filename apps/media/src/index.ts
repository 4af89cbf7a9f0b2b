export { MediaAppModule } from './media.module';
