import { AccountEntity } from './account.entity';
import { ApiKeyEntity } from './api-key.entity';
import { CreditEntity } from './credit.entity';
import { HoldEntity } from './hold.entity';
import { LedgerEntryEntity } from './ledger-entry.entity';

export { AccountEntity, ApiKeyEntity, CreditEntity, HoldEntity, LedgerEntryEntity };

export const BILLING_ENTITIES = [AccountEntity, ApiKeyEntity, CreditEntity, HoldEntity, LedgerEntryEntity];
