import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { Account as _unigate_billing_v1_Account, Account__Output as _unigate_billing_v1_Account__Output } from './unigate/billing/v1/Account';
import type { AccountMoneyReply as _unigate_billing_v1_AccountMoneyReply, AccountMoneyReply__Output as _unigate_billing_v1_AccountMoneyReply__Output } from './unigate/billing/v1/AccountMoneyReply';
import type { AccountRef as _unigate_billing_v1_AccountRef, AccountRef__Output as _unigate_billing_v1_AccountRef__Output } from './unigate/billing/v1/AccountRef';
import type { AuthenticateReply as _unigate_billing_v1_AuthenticateReply, AuthenticateReply__Output as _unigate_billing_v1_AuthenticateReply__Output } from './unigate/billing/v1/AuthenticateReply';
import type { AuthenticateRequest as _unigate_billing_v1_AuthenticateRequest, AuthenticateRequest__Output as _unigate_billing_v1_AuthenticateRequest__Output } from './unigate/billing/v1/AuthenticateRequest';
import type { BillingServiceClient as _unigate_billing_v1_BillingServiceClient, BillingServiceDefinition as _unigate_billing_v1_BillingServiceDefinition } from './unigate/billing/v1/BillingService';
import type { CreateAccountRequest as _unigate_billing_v1_CreateAccountRequest, CreateAccountRequest__Output as _unigate_billing_v1_CreateAccountRequest__Output } from './unigate/billing/v1/CreateAccountRequest';
import type { CreateKeyRequest as _unigate_billing_v1_CreateKeyRequest, CreateKeyRequest__Output as _unigate_billing_v1_CreateKeyRequest__Output } from './unigate/billing/v1/CreateKeyRequest';
import type { CreatedKey as _unigate_billing_v1_CreatedKey, CreatedKey__Output as _unigate_billing_v1_CreatedKey__Output } from './unigate/billing/v1/CreatedKey';
import type { CreditReply as _unigate_billing_v1_CreditReply, CreditReply__Output as _unigate_billing_v1_CreditReply__Output } from './unigate/billing/v1/CreditReply';
import type { CreditRequest as _unigate_billing_v1_CreditRequest, CreditRequest__Output as _unigate_billing_v1_CreditRequest__Output } from './unigate/billing/v1/CreditRequest';
import type { DailyCharge as _unigate_billing_v1_DailyCharge, DailyCharge__Output as _unigate_billing_v1_DailyCharge__Output } from './unigate/billing/v1/DailyCharge';
import type { DailyModelUsage as _unigate_billing_v1_DailyModelUsage, DailyModelUsage__Output as _unigate_billing_v1_DailyModelUsage__Output } from './unigate/billing/v1/DailyModelUsage';
import type { Empty as _unigate_billing_v1_Empty, Empty__Output as _unigate_billing_v1_Empty__Output } from './unigate/billing/v1/Empty';
import type { KeyInfo as _unigate_billing_v1_KeyInfo, KeyInfo__Output as _unigate_billing_v1_KeyInfo__Output } from './unigate/billing/v1/KeyInfo';
import type { KeyList as _unigate_billing_v1_KeyList, KeyList__Output as _unigate_billing_v1_KeyList__Output } from './unigate/billing/v1/KeyList';
import type { KeyRef as _unigate_billing_v1_KeyRef, KeyRef__Output as _unigate_billing_v1_KeyRef__Output } from './unigate/billing/v1/KeyRef';
import type { KeySettings as _unigate_billing_v1_KeySettings, KeySettings__Output as _unigate_billing_v1_KeySettings__Output } from './unigate/billing/v1/KeySettings';
import type { LedgerEntry as _unigate_billing_v1_LedgerEntry, LedgerEntry__Output as _unigate_billing_v1_LedgerEntry__Output } from './unigate/billing/v1/LedgerEntry';
import type { ModelList as _unigate_billing_v1_ModelList, ModelList__Output as _unigate_billing_v1_ModelList__Output } from './unigate/billing/v1/ModelList';
import type { Principal as _unigate_billing_v1_Principal, Principal__Output as _unigate_billing_v1_Principal__Output } from './unigate/billing/v1/Principal';
import type { Quota as _unigate_billing_v1_Quota, Quota__Output as _unigate_billing_v1_Quota__Output } from './unigate/billing/v1/Quota';
import type { QuotaRequest as _unigate_billing_v1_QuotaRequest, QuotaRequest__Output as _unigate_billing_v1_QuotaRequest__Output } from './unigate/billing/v1/QuotaRequest';
import type { RegisterUserRequest as _unigate_billing_v1_RegisterUserRequest, RegisterUserRequest__Output as _unigate_billing_v1_RegisterUserRequest__Output } from './unigate/billing/v1/RegisterUserRequest';
import type { ReleaseHoldRequest as _unigate_billing_v1_ReleaseHoldRequest, ReleaseHoldRequest__Output as _unigate_billing_v1_ReleaseHoldRequest__Output } from './unigate/billing/v1/ReleaseHoldRequest';
import type { SetAccountTierRequest as _unigate_billing_v1_SetAccountTierRequest, SetAccountTierRequest__Output as _unigate_billing_v1_SetAccountTierRequest__Output } from './unigate/billing/v1/SetAccountTierRequest';
import type { UpdateKeyRequest as _unigate_billing_v1_UpdateKeyRequest, UpdateKeyRequest__Output as _unigate_billing_v1_UpdateKeyRequest__Output } from './unigate/billing/v1/UpdateKeyRequest';
import type { UsageList as _unigate_billing_v1_UsageList, UsageList__Output as _unigate_billing_v1_UsageList__Output } from './unigate/billing/v1/UsageList';
import type { UsageListRequest as _unigate_billing_v1_UsageListRequest, UsageListRequest__Output as _unigate_billing_v1_UsageListRequest__Output } from './unigate/billing/v1/UsageListRequest';
import type { UsageSummary as _unigate_billing_v1_UsageSummary, UsageSummary__Output as _unigate_billing_v1_UsageSummary__Output } from './unigate/billing/v1/UsageSummary';
import type { UsageSummaryRequest as _unigate_billing_v1_UsageSummaryRequest, UsageSummaryRequest__Output as _unigate_billing_v1_UsageSummaryRequest__Output } from './unigate/billing/v1/UsageSummaryRequest';
import type { User as _unigate_billing_v1_User, User__Output as _unigate_billing_v1_User__Output } from './unigate/billing/v1/User';
import type { VerifyUserReply as _unigate_billing_v1_VerifyUserReply, VerifyUserReply__Output as _unigate_billing_v1_VerifyUserReply__Output } from './unigate/billing/v1/VerifyUserReply';
import type { VerifyUserRequest as _unigate_billing_v1_VerifyUserRequest, VerifyUserRequest__Output as _unigate_billing_v1_VerifyUserRequest__Output } from './unigate/billing/v1/VerifyUserRequest';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  unigate: {
    billing: {
      v1: {
        Account: MessageTypeDefinition<_unigate_billing_v1_Account, _unigate_billing_v1_Account__Output>
        AccountMoneyReply: MessageTypeDefinition<_unigate_billing_v1_AccountMoneyReply, _unigate_billing_v1_AccountMoneyReply__Output>
        AccountRef: MessageTypeDefinition<_unigate_billing_v1_AccountRef, _unigate_billing_v1_AccountRef__Output>
        AuthenticateReply: MessageTypeDefinition<_unigate_billing_v1_AuthenticateReply, _unigate_billing_v1_AuthenticateReply__Output>
        AuthenticateRequest: MessageTypeDefinition<_unigate_billing_v1_AuthenticateRequest, _unigate_billing_v1_AuthenticateRequest__Output>
        BillingService: SubtypeConstructor<typeof grpc.Client, _unigate_billing_v1_BillingServiceClient> & { service: _unigate_billing_v1_BillingServiceDefinition }
        CreateAccountRequest: MessageTypeDefinition<_unigate_billing_v1_CreateAccountRequest, _unigate_billing_v1_CreateAccountRequest__Output>
        CreateKeyRequest: MessageTypeDefinition<_unigate_billing_v1_CreateKeyRequest, _unigate_billing_v1_CreateKeyRequest__Output>
        CreatedKey: MessageTypeDefinition<_unigate_billing_v1_CreatedKey, _unigate_billing_v1_CreatedKey__Output>
        CreditReply: MessageTypeDefinition<_unigate_billing_v1_CreditReply, _unigate_billing_v1_CreditReply__Output>
        CreditRequest: MessageTypeDefinition<_unigate_billing_v1_CreditRequest, _unigate_billing_v1_CreditRequest__Output>
        DailyCharge: MessageTypeDefinition<_unigate_billing_v1_DailyCharge, _unigate_billing_v1_DailyCharge__Output>
        DailyModelUsage: MessageTypeDefinition<_unigate_billing_v1_DailyModelUsage, _unigate_billing_v1_DailyModelUsage__Output>
        Empty: MessageTypeDefinition<_unigate_billing_v1_Empty, _unigate_billing_v1_Empty__Output>
        KeyInfo: MessageTypeDefinition<_unigate_billing_v1_KeyInfo, _unigate_billing_v1_KeyInfo__Output>
        KeyList: MessageTypeDefinition<_unigate_billing_v1_KeyList, _unigate_billing_v1_KeyList__Output>
        KeyRef: MessageTypeDefinition<_unigate_billing_v1_KeyRef, _unigate_billing_v1_KeyRef__Output>
        KeySettings: MessageTypeDefinition<_unigate_billing_v1_KeySettings, _unigate_billing_v1_KeySettings__Output>
        LedgerEntry: MessageTypeDefinition<_unigate_billing_v1_LedgerEntry, _unigate_billing_v1_LedgerEntry__Output>
        ModelList: MessageTypeDefinition<_unigate_billing_v1_ModelList, _unigate_billing_v1_ModelList__Output>
        Principal: MessageTypeDefinition<_unigate_billing_v1_Principal, _unigate_billing_v1_Principal__Output>
        Quota: MessageTypeDefinition<_unigate_billing_v1_Quota, _unigate_billing_v1_Quota__Output>
        QuotaRequest: MessageTypeDefinition<_unigate_billing_v1_QuotaRequest, _unigate_billing_v1_QuotaRequest__Output>
        RegisterUserRequest: MessageTypeDefinition<_unigate_billing_v1_RegisterUserRequest, _unigate_billing_v1_RegisterUserRequest__Output>
        ReleaseHoldRequest: MessageTypeDefinition<_unigate_billing_v1_ReleaseHoldRequest, _unigate_billing_v1_ReleaseHoldRequest__Output>
        SetAccountTierRequest: MessageTypeDefinition<_unigate_billing_v1_SetAccountTierRequest, _unigate_billing_v1_SetAccountTierRequest__Output>
        UpdateKeyRequest: MessageTypeDefinition<_unigate_billing_v1_UpdateKeyRequest, _unigate_billing_v1_UpdateKeyRequest__Output>
        UsageList: MessageTypeDefinition<_unigate_billing_v1_UsageList, _unigate_billing_v1_UsageList__Output>
        UsageListRequest: MessageTypeDefinition<_unigate_billing_v1_UsageListRequest, _unigate_billing_v1_UsageListRequest__Output>
        UsageSummary: MessageTypeDefinition<_unigate_billing_v1_UsageSummary, _unigate_billing_v1_UsageSummary__Output>
        UsageSummaryRequest: MessageTypeDefinition<_unigate_billing_v1_UsageSummaryRequest, _unigate_billing_v1_UsageSummaryRequest__Output>
        User: MessageTypeDefinition<_unigate_billing_v1_User, _unigate_billing_v1_User__Output>
        VerifyUserReply: MessageTypeDefinition<_unigate_billing_v1_VerifyUserReply, _unigate_billing_v1_VerifyUserReply__Output>
        VerifyUserRequest: MessageTypeDefinition<_unigate_billing_v1_VerifyUserRequest, _unigate_billing_v1_VerifyUserRequest__Output>
      }
    }
  }
}

