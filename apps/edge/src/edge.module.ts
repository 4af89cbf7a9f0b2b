import { Module, type DynamicModule } from '@nestjs/common';
import type { BillingPort, CatalogPort, ChatPort, MessagesPort } from '@unigate/contracts';
import type { Logger } from '@unigate/platform';
import { AdminController } from './admin/admin.controller';
import { AdminGuard } from './auth/admin.guard';
import { Authenticator } from './auth/authenticator';
import { DashboardBillingController } from './billing/dashboard-billing.controller';
import { ChatCompletionsUseCase } from './chat/chat-completions.use-case';
import { ChatController } from './chat/chat.controller';
import type { EdgeOptions } from './edge-options';
import { KEY_LIMITER, type KeyLimiter } from './limits/key-limiter';
import { MessagesController } from './messages/messages.controller';
import { MessagesUseCase } from './messages/messages.use-case';
import { ModelsController } from './models/models.controller';
import { BILLING_PORT, CATALOG_PORT, CHAT_PORT, EDGE_LOGGER, EDGE_OPTIONS } from './tokens';

export interface EdgePorts {
  chat: ChatPort;
  messages: MessagesPort;
  billing: BillingPort;
  catalog: CatalogPort;
}

/**
 * The public HTTP surface. It holds no business state: the ports it is given are gRPC clients in
 * distributed mode and the domain services themselves in standalone.
 */
@Module({})
export class EdgeModule {
  static register(ports: EdgePorts, options: EdgeOptions, logger: Logger, limiter: KeyLimiter): DynamicModule {
    return {
      module: EdgeModule,
      controllers: [ChatController, MessagesController, ModelsController, DashboardBillingController, AdminController],
      providers: [
        { provide: CHAT_PORT, useValue: ports.chat },
        { provide: BILLING_PORT, useValue: ports.billing },
        { provide: CATALOG_PORT, useValue: ports.catalog },
        { provide: EDGE_OPTIONS, useValue: options },
        { provide: EDGE_LOGGER, useValue: logger },
        { provide: KEY_LIMITER, useValue: limiter },
        { provide: Authenticator, useFactory: () => new Authenticator(ports.billing) },
        { provide: ChatCompletionsUseCase, useFactory: () => new ChatCompletionsUseCase(ports.chat, ports.billing, ports.catalog, logger) },
        { provide: MessagesUseCase, inject: [ChatCompletionsUseCase], useFactory: (chat: ChatCompletionsUseCase) => new MessagesUseCase(chat, ports.messages) },
        AdminGuard,
      ],
      exports: [Authenticator],
    };
  }
}
