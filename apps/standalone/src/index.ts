export { composeGateway, type Gateway, type ComposeOptions } from './compose';
