import { AccountEntity } from './account.entity';
import { ApiKeyEntity } from './api-key.entity';
import { CreditEntity } from './credit.entity';
import { LedgerEntryEntity } from './ledger-entry.entity';
import { UserEntity } from './user.entity';

export { AccountEntity, ApiKeyEntity, CreditEntity, LedgerEntryEntity, UserEntity };

export const BILLING_ENTITIES = [AccountEntity, ApiKeyEntity, CreditEntity, LedgerEntryEntity, UserEntity];
