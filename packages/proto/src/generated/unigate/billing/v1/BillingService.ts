// Original file: proto/billing.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { Account as _unigate_billing_v1_Account, Account__Output as _unigate_billing_v1_Account__Output } from '../../../unigate/billing/v1/Account';
import type { AccountMoneyReply as _unigate_billing_v1_AccountMoneyReply, AccountMoneyReply__Output as _unigate_billing_v1_AccountMoneyReply__Output } from '../../../unigate/billing/v1/AccountMoneyReply';
import type { AccountRef as _unigate_billing_v1_AccountRef, AccountRef__Output as _unigate_billing_v1_AccountRef__Output } from '../../../unigate/billing/v1/AccountRef';
import type { AuthenticateReply as _unigate_billing_v1_AuthenticateReply, AuthenticateReply__Output as _unigate_billing_v1_AuthenticateReply__Output } from '../../../unigate/billing/v1/AuthenticateReply';
import type { AuthenticateRequest as _unigate_billing_v1_AuthenticateRequest, AuthenticateRequest__Output as _unigate_billing_v1_AuthenticateRequest__Output } from '../../../unigate/billing/v1/AuthenticateRequest';
import type { CreateAccountRequest as _unigate_billing_v1_CreateAccountRequest, CreateAccountRequest__Output as _unigate_billing_v1_CreateAccountRequest__Output } from '../../../unigate/billing/v1/CreateAccountRequest';
import type { CreateKeyRequest as _unigate_billing_v1_CreateKeyRequest, CreateKeyRequest__Output as _unigate_billing_v1_CreateKeyRequest__Output } from '../../../unigate/billing/v1/CreateKeyRequest';
import type { CreatedKey as _unigate_billing_v1_CreatedKey, CreatedKey__Output as _unigate_billing_v1_CreatedKey__Output } from '../../../unigate/billing/v1/CreatedKey';
import type { CreditReply as _unigate_billing_v1_CreditReply, CreditReply__Output as _unigate_billing_v1_CreditReply__Output } from '../../../unigate/billing/v1/CreditReply';
import type { CreditRequest as _unigate_billing_v1_CreditRequest, CreditRequest__Output as _unigate_billing_v1_CreditRequest__Output } from '../../../unigate/billing/v1/CreditRequest';
import type { Empty as _unigate_billing_v1_Empty, Empty__Output as _unigate_billing_v1_Empty__Output } from '../../../unigate/billing/v1/Empty';
import type { KeyList as _unigate_billing_v1_KeyList, KeyList__Output as _unigate_billing_v1_KeyList__Output } from '../../../unigate/billing/v1/KeyList';
import type { KeyRef as _unigate_billing_v1_KeyRef, KeyRef__Output as _unigate_billing_v1_KeyRef__Output } from '../../../unigate/billing/v1/KeyRef';
import type { KeySettings as _unigate_billing_v1_KeySettings, KeySettings__Output as _unigate_billing_v1_KeySettings__Output } from '../../../unigate/billing/v1/KeySettings';
import type { Quota as _unigate_billing_v1_Quota, Quota__Output as _unigate_billing_v1_Quota__Output } from '../../../unigate/billing/v1/Quota';
import type { QuotaRequest as _unigate_billing_v1_QuotaRequest, QuotaRequest__Output as _unigate_billing_v1_QuotaRequest__Output } from '../../../unigate/billing/v1/QuotaRequest';
import type { RegisterUserRequest as _unigate_billing_v1_RegisterUserRequest, RegisterUserRequest__Output as _unigate_billing_v1_RegisterUserRequest__Output } from '../../../unigate/billing/v1/RegisterUserRequest';
import type { ReleaseHoldRequest as _unigate_billing_v1_ReleaseHoldRequest, ReleaseHoldRequest__Output as _unigate_billing_v1_ReleaseHoldRequest__Output } from '../../../unigate/billing/v1/ReleaseHoldRequest';
import type { SetAccountTierRequest as _unigate_billing_v1_SetAccountTierRequest, SetAccountTierRequest__Output as _unigate_billing_v1_SetAccountTierRequest__Output } from '../../../unigate/billing/v1/SetAccountTierRequest';
import type { UpdateKeyRequest as _unigate_billing_v1_UpdateKeyRequest, UpdateKeyRequest__Output as _unigate_billing_v1_UpdateKeyRequest__Output } from '../../../unigate/billing/v1/UpdateKeyRequest';
import type { UsageList as _unigate_billing_v1_UsageList, UsageList__Output as _unigate_billing_v1_UsageList__Output } from '../../../unigate/billing/v1/UsageList';
import type { UsageListRequest as _unigate_billing_v1_UsageListRequest, UsageListRequest__Output as _unigate_billing_v1_UsageListRequest__Output } from '../../../unigate/billing/v1/UsageListRequest';
import type { UsageSummary as _unigate_billing_v1_UsageSummary, UsageSummary__Output as _unigate_billing_v1_UsageSummary__Output } from '../../../unigate/billing/v1/UsageSummary';
import type { UsageSummaryRequest as _unigate_billing_v1_UsageSummaryRequest, UsageSummaryRequest__Output as _unigate_billing_v1_UsageSummaryRequest__Output } from '../../../unigate/billing/v1/UsageSummaryRequest';
import type { User as _unigate_billing_v1_User, User__Output as _unigate_billing_v1_User__Output } from '../../../unigate/billing/v1/User';
import type { VerifyUserReply as _unigate_billing_v1_VerifyUserReply, VerifyUserReply__Output as _unigate_billing_v1_VerifyUserReply__Output } from '../../../unigate/billing/v1/VerifyUserReply';
import type { VerifyUserRequest as _unigate_billing_v1_VerifyUserRequest, VerifyUserRequest__Output as _unigate_billing_v1_VerifyUserRequest__Output } from '../../../unigate/billing/v1/VerifyUserRequest';

export interface BillingServiceClient extends grpc.Client {
  Authenticate(argument: _unigate_billing_v1_AuthenticateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_AuthenticateReply__Output>): grpc.ClientUnaryCall;
  Authenticate(argument: _unigate_billing_v1_AuthenticateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_billing_v1_AuthenticateReply__Output>): grpc.ClientUnaryCall;
  Authenticate(argument: _unigate_billing_v1_AuthenticateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_AuthenticateReply__Output>): grpc.ClientUnaryCall;
  Authenticate(argument: _unigate_billing_v1_AuthenticateRequest, callback: grpc.requestCallback<_unigate_billing_v1_AuthenticateReply__Output>): grpc.ClientUnaryCall;
  authenticate(argument: _unigate_billing_v1_AuthenticateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_AuthenticateReply__Output>): grpc.ClientUnaryCall;
  authenticate(argument: _unigate_billing_v1_AuthenticateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_billing_v1_AuthenticateReply__Output>): grpc.ClientUnaryCall;
  authenticate(argument: _unigate_billing_v1_AuthenticateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_AuthenticateReply__Output>): grpc.ClientUnaryCall;
  authenticate(argument: _unigate_billing_v1_AuthenticateRequest, callback: grpc.requestCallback<_unigate_billing_v1_AuthenticateReply__Output>): grpc.ClientUnaryCall;
  
  CreateAccount(argument: _unigate_billing_v1_CreateAccountRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_Account__Output>): grpc.ClientUnaryCall;
  CreateAccount(argument: _unigate_billing_v1_CreateAccountRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_billing_v1_Account__Output>): grpc.ClientUnaryCall;
  CreateAccount(argument: _unigate_billing_v1_CreateAccountRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_Account__Output>): grpc.ClientUnaryCall;
  CreateAccount(argument: _unigate_billing_v1_CreateAccountRequest, callback: grpc.requestCallback<_unigate_billing_v1_Account__Output>): grpc.ClientUnaryCall;
  createAccount(argument: _unigate_billing_v1_CreateAccountRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_Account__Output>): grpc.ClientUnaryCall;
  createAccount(argument: _unigate_billing_v1_CreateAccountRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_billing_v1_Account__Output>): grpc.ClientUnaryCall;
  createAccount(argument: _unigate_billing_v1_CreateAccountRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_Account__Output>): grpc.ClientUnaryCall;
  createAccount(argument: _unigate_billing_v1_CreateAccountRequest, callback: grpc.requestCallback<_unigate_billing_v1_Account__Output>): grpc.ClientUnaryCall;
  
  CreateKey(argument: _unigate_billing_v1_CreateKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_CreatedKey__Output>): grpc.ClientUnaryCall;
  CreateKey(argument: _unigate_billing_v1_CreateKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_billing_v1_CreatedKey__Output>): grpc.ClientUnaryCall;
  CreateKey(argument: _unigate_billing_v1_CreateKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_CreatedKey__Output>): grpc.ClientUnaryCall;
  CreateKey(argument: _unigate_billing_v1_CreateKeyRequest, callback: grpc.requestCallback<_unigate_billing_v1_CreatedKey__Output>): grpc.ClientUnaryCall;
  createKey(argument: _unigate_billing_v1_CreateKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_CreatedKey__Output>): grpc.ClientUnaryCall;
  createKey(argument: _unigate_billing_v1_CreateKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_billing_v1_CreatedKey__Output>): grpc.ClientUnaryCall;
  createKey(argument: _unigate_billing_v1_CreateKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_CreatedKey__Output>): grpc.ClientUnaryCall;
  createKey(argument: _unigate_billing_v1_CreateKeyRequest, callback: grpc.requestCallback<_unigate_billing_v1_CreatedKey__Output>): grpc.ClientUnaryCall;
  
  Credit(argument: _unigate_billing_v1_CreditRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_CreditReply__Output>): grpc.ClientUnaryCall;
  Credit(argument: _unigate_billing_v1_CreditRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_billing_v1_CreditReply__Output>): grpc.ClientUnaryCall;
  Credit(argument: _unigate_billing_v1_CreditRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_CreditReply__Output>): grpc.ClientUnaryCall;
  Credit(argument: _unigate_billing_v1_CreditRequest, callback: grpc.requestCallback<_unigate_billing_v1_CreditReply__Output>): grpc.ClientUnaryCall;
  credit(argument: _unigate_billing_v1_CreditRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_CreditReply__Output>): grpc.ClientUnaryCall;
  credit(argument: _unigate_billing_v1_CreditRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_billing_v1_CreditReply__Output>): grpc.ClientUnaryCall;
  credit(argument: _unigate_billing_v1_CreditRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_CreditReply__Output>): grpc.ClientUnaryCall;
  credit(argument: _unigate_billing_v1_CreditRequest, callback: grpc.requestCallback<_unigate_billing_v1_CreditReply__Output>): grpc.ClientUnaryCall;
  
  GetAccount(argument: _unigate_billing_v1_AccountRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_Account__Output>): grpc.ClientUnaryCall;
  GetAccount(argument: _unigate_billing_v1_AccountRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_billing_v1_Account__Output>): grpc.ClientUnaryCall;
  GetAccount(argument: _unigate_billing_v1_AccountRef, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_Account__Output>): grpc.ClientUnaryCall;
  GetAccount(argument: _unigate_billing_v1_AccountRef, callback: grpc.requestCallback<_unigate_billing_v1_Account__Output>): grpc.ClientUnaryCall;
  getAccount(argument: _unigate_billing_v1_AccountRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_Account__Output>): grpc.ClientUnaryCall;
  getAccount(argument: _unigate_billing_v1_AccountRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_billing_v1_Account__Output>): grpc.ClientUnaryCall;
  getAccount(argument: _unigate_billing_v1_AccountRef, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_Account__Output>): grpc.ClientUnaryCall;
  getAccount(argument: _unigate_billing_v1_AccountRef, callback: grpc.requestCallback<_unigate_billing_v1_Account__Output>): grpc.ClientUnaryCall;
  
  GetAccountMoney(argument: _unigate_billing_v1_AccountRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_AccountMoneyReply__Output>): grpc.ClientUnaryCall;
  GetAccountMoney(argument: _unigate_billing_v1_AccountRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_billing_v1_AccountMoneyReply__Output>): grpc.ClientUnaryCall;
  GetAccountMoney(argument: _unigate_billing_v1_AccountRef, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_AccountMoneyReply__Output>): grpc.ClientUnaryCall;
  GetAccountMoney(argument: _unigate_billing_v1_AccountRef, callback: grpc.requestCallback<_unigate_billing_v1_AccountMoneyReply__Output>): grpc.ClientUnaryCall;
  getAccountMoney(argument: _unigate_billing_v1_AccountRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_AccountMoneyReply__Output>): grpc.ClientUnaryCall;
  getAccountMoney(argument: _unigate_billing_v1_AccountRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_billing_v1_AccountMoneyReply__Output>): grpc.ClientUnaryCall;
  getAccountMoney(argument: _unigate_billing_v1_AccountRef, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_AccountMoneyReply__Output>): grpc.ClientUnaryCall;
  getAccountMoney(argument: _unigate_billing_v1_AccountRef, callback: grpc.requestCallback<_unigate_billing_v1_AccountMoneyReply__Output>): grpc.ClientUnaryCall;
  
  GetQuota(argument: _unigate_billing_v1_QuotaRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_Quota__Output>): grpc.ClientUnaryCall;
  GetQuota(argument: _unigate_billing_v1_QuotaRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_billing_v1_Quota__Output>): grpc.ClientUnaryCall;
  GetQuota(argument: _unigate_billing_v1_QuotaRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_Quota__Output>): grpc.ClientUnaryCall;
  GetQuota(argument: _unigate_billing_v1_QuotaRequest, callback: grpc.requestCallback<_unigate_billing_v1_Quota__Output>): grpc.ClientUnaryCall;
  getQuota(argument: _unigate_billing_v1_QuotaRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_Quota__Output>): grpc.ClientUnaryCall;
  getQuota(argument: _unigate_billing_v1_QuotaRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_billing_v1_Quota__Output>): grpc.ClientUnaryCall;
  getQuota(argument: _unigate_billing_v1_QuotaRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_Quota__Output>): grpc.ClientUnaryCall;
  getQuota(argument: _unigate_billing_v1_QuotaRequest, callback: grpc.requestCallback<_unigate_billing_v1_Quota__Output>): grpc.ClientUnaryCall;
  
  GetUsageSummary(argument: _unigate_billing_v1_UsageSummaryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_UsageSummary__Output>): grpc.ClientUnaryCall;
  GetUsageSummary(argument: _unigate_billing_v1_UsageSummaryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_billing_v1_UsageSummary__Output>): grpc.ClientUnaryCall;
  GetUsageSummary(argument: _unigate_billing_v1_UsageSummaryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_UsageSummary__Output>): grpc.ClientUnaryCall;
  GetUsageSummary(argument: _unigate_billing_v1_UsageSummaryRequest, callback: grpc.requestCallback<_unigate_billing_v1_UsageSummary__Output>): grpc.ClientUnaryCall;
  getUsageSummary(argument: _unigate_billing_v1_UsageSummaryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_UsageSummary__Output>): grpc.ClientUnaryCall;
  getUsageSummary(argument: _unigate_billing_v1_UsageSummaryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_billing_v1_UsageSummary__Output>): grpc.ClientUnaryCall;
  getUsageSummary(argument: _unigate_billing_v1_UsageSummaryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_UsageSummary__Output>): grpc.ClientUnaryCall;
  getUsageSummary(argument: _unigate_billing_v1_UsageSummaryRequest, callback: grpc.requestCallback<_unigate_billing_v1_UsageSummary__Output>): grpc.ClientUnaryCall;
  
  ListKeys(argument: _unigate_billing_v1_AccountRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_KeyList__Output>): grpc.ClientUnaryCall;
  ListKeys(argument: _unigate_billing_v1_AccountRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_billing_v1_KeyList__Output>): grpc.ClientUnaryCall;
  ListKeys(argument: _unigate_billing_v1_AccountRef, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_KeyList__Output>): grpc.ClientUnaryCall;
  ListKeys(argument: _unigate_billing_v1_AccountRef, callback: grpc.requestCallback<_unigate_billing_v1_KeyList__Output>): grpc.ClientUnaryCall;
  listKeys(argument: _unigate_billing_v1_AccountRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_KeyList__Output>): grpc.ClientUnaryCall;
  listKeys(argument: _unigate_billing_v1_AccountRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_billing_v1_KeyList__Output>): grpc.ClientUnaryCall;
  listKeys(argument: _unigate_billing_v1_AccountRef, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_KeyList__Output>): grpc.ClientUnaryCall;
  listKeys(argument: _unigate_billing_v1_AccountRef, callback: grpc.requestCallback<_unigate_billing_v1_KeyList__Output>): grpc.ClientUnaryCall;
  
  ListUsage(argument: _unigate_billing_v1_UsageListRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_UsageList__Output>): grpc.ClientUnaryCall;
  ListUsage(argument: _unigate_billing_v1_UsageListRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_billing_v1_UsageList__Output>): grpc.ClientUnaryCall;
  ListUsage(argument: _unigate_billing_v1_UsageListRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_UsageList__Output>): grpc.ClientUnaryCall;
  ListUsage(argument: _unigate_billing_v1_UsageListRequest, callback: grpc.requestCallback<_unigate_billing_v1_UsageList__Output>): grpc.ClientUnaryCall;
  listUsage(argument: _unigate_billing_v1_UsageListRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_UsageList__Output>): grpc.ClientUnaryCall;
  listUsage(argument: _unigate_billing_v1_UsageListRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_billing_v1_UsageList__Output>): grpc.ClientUnaryCall;
  listUsage(argument: _unigate_billing_v1_UsageListRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_UsageList__Output>): grpc.ClientUnaryCall;
  listUsage(argument: _unigate_billing_v1_UsageListRequest, callback: grpc.requestCallback<_unigate_billing_v1_UsageList__Output>): grpc.ClientUnaryCall;
  
  RegisterUser(argument: _unigate_billing_v1_RegisterUserRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_User__Output>): grpc.ClientUnaryCall;
  RegisterUser(argument: _unigate_billing_v1_RegisterUserRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_billing_v1_User__Output>): grpc.ClientUnaryCall;
  RegisterUser(argument: _unigate_billing_v1_RegisterUserRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_User__Output>): grpc.ClientUnaryCall;
  RegisterUser(argument: _unigate_billing_v1_RegisterUserRequest, callback: grpc.requestCallback<_unigate_billing_v1_User__Output>): grpc.ClientUnaryCall;
  registerUser(argument: _unigate_billing_v1_RegisterUserRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_User__Output>): grpc.ClientUnaryCall;
  registerUser(argument: _unigate_billing_v1_RegisterUserRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_billing_v1_User__Output>): grpc.ClientUnaryCall;
  registerUser(argument: _unigate_billing_v1_RegisterUserRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_User__Output>): grpc.ClientUnaryCall;
  registerUser(argument: _unigate_billing_v1_RegisterUserRequest, callback: grpc.requestCallback<_unigate_billing_v1_User__Output>): grpc.ClientUnaryCall;
  
  ReleaseHold(argument: _unigate_billing_v1_ReleaseHoldRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_Empty__Output>): grpc.ClientUnaryCall;
  ReleaseHold(argument: _unigate_billing_v1_ReleaseHoldRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_billing_v1_Empty__Output>): grpc.ClientUnaryCall;
  ReleaseHold(argument: _unigate_billing_v1_ReleaseHoldRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_Empty__Output>): grpc.ClientUnaryCall;
  ReleaseHold(argument: _unigate_billing_v1_ReleaseHoldRequest, callback: grpc.requestCallback<_unigate_billing_v1_Empty__Output>): grpc.ClientUnaryCall;
  releaseHold(argument: _unigate_billing_v1_ReleaseHoldRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_Empty__Output>): grpc.ClientUnaryCall;
  releaseHold(argument: _unigate_billing_v1_ReleaseHoldRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_billing_v1_Empty__Output>): grpc.ClientUnaryCall;
  releaseHold(argument: _unigate_billing_v1_ReleaseHoldRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_Empty__Output>): grpc.ClientUnaryCall;
  releaseHold(argument: _unigate_billing_v1_ReleaseHoldRequest, callback: grpc.requestCallback<_unigate_billing_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  RevokeKey(argument: _unigate_billing_v1_KeyRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_Empty__Output>): grpc.ClientUnaryCall;
  RevokeKey(argument: _unigate_billing_v1_KeyRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_billing_v1_Empty__Output>): grpc.ClientUnaryCall;
  RevokeKey(argument: _unigate_billing_v1_KeyRef, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_Empty__Output>): grpc.ClientUnaryCall;
  RevokeKey(argument: _unigate_billing_v1_KeyRef, callback: grpc.requestCallback<_unigate_billing_v1_Empty__Output>): grpc.ClientUnaryCall;
  revokeKey(argument: _unigate_billing_v1_KeyRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_Empty__Output>): grpc.ClientUnaryCall;
  revokeKey(argument: _unigate_billing_v1_KeyRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_billing_v1_Empty__Output>): grpc.ClientUnaryCall;
  revokeKey(argument: _unigate_billing_v1_KeyRef, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_Empty__Output>): grpc.ClientUnaryCall;
  revokeKey(argument: _unigate_billing_v1_KeyRef, callback: grpc.requestCallback<_unigate_billing_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  SetAccountTier(argument: _unigate_billing_v1_SetAccountTierRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_SetAccountTierRequest__Output>): grpc.ClientUnaryCall;
  SetAccountTier(argument: _unigate_billing_v1_SetAccountTierRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_billing_v1_SetAccountTierRequest__Output>): grpc.ClientUnaryCall;
  SetAccountTier(argument: _unigate_billing_v1_SetAccountTierRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_SetAccountTierRequest__Output>): grpc.ClientUnaryCall;
  SetAccountTier(argument: _unigate_billing_v1_SetAccountTierRequest, callback: grpc.requestCallback<_unigate_billing_v1_SetAccountTierRequest__Output>): grpc.ClientUnaryCall;
  setAccountTier(argument: _unigate_billing_v1_SetAccountTierRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_SetAccountTierRequest__Output>): grpc.ClientUnaryCall;
  setAccountTier(argument: _unigate_billing_v1_SetAccountTierRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_billing_v1_SetAccountTierRequest__Output>): grpc.ClientUnaryCall;
  setAccountTier(argument: _unigate_billing_v1_SetAccountTierRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_SetAccountTierRequest__Output>): grpc.ClientUnaryCall;
  setAccountTier(argument: _unigate_billing_v1_SetAccountTierRequest, callback: grpc.requestCallback<_unigate_billing_v1_SetAccountTierRequest__Output>): grpc.ClientUnaryCall;
  
  UpdateKey(argument: _unigate_billing_v1_UpdateKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_KeySettings__Output>): grpc.ClientUnaryCall;
  UpdateKey(argument: _unigate_billing_v1_UpdateKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_billing_v1_KeySettings__Output>): grpc.ClientUnaryCall;
  UpdateKey(argument: _unigate_billing_v1_UpdateKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_KeySettings__Output>): grpc.ClientUnaryCall;
  UpdateKey(argument: _unigate_billing_v1_UpdateKeyRequest, callback: grpc.requestCallback<_unigate_billing_v1_KeySettings__Output>): grpc.ClientUnaryCall;
  updateKey(argument: _unigate_billing_v1_UpdateKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_KeySettings__Output>): grpc.ClientUnaryCall;
  updateKey(argument: _unigate_billing_v1_UpdateKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_billing_v1_KeySettings__Output>): grpc.ClientUnaryCall;
  updateKey(argument: _unigate_billing_v1_UpdateKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_KeySettings__Output>): grpc.ClientUnaryCall;
  updateKey(argument: _unigate_billing_v1_UpdateKeyRequest, callback: grpc.requestCallback<_unigate_billing_v1_KeySettings__Output>): grpc.ClientUnaryCall;
  
  VerifyUser(argument: _unigate_billing_v1_VerifyUserRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_VerifyUserReply__Output>): grpc.ClientUnaryCall;
  VerifyUser(argument: _unigate_billing_v1_VerifyUserRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_billing_v1_VerifyUserReply__Output>): grpc.ClientUnaryCall;
  VerifyUser(argument: _unigate_billing_v1_VerifyUserRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_VerifyUserReply__Output>): grpc.ClientUnaryCall;
  VerifyUser(argument: _unigate_billing_v1_VerifyUserRequest, callback: grpc.requestCallback<_unigate_billing_v1_VerifyUserReply__Output>): grpc.ClientUnaryCall;
  verifyUser(argument: _unigate_billing_v1_VerifyUserRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_VerifyUserReply__Output>): grpc.ClientUnaryCall;
  verifyUser(argument: _unigate_billing_v1_VerifyUserRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_billing_v1_VerifyUserReply__Output>): grpc.ClientUnaryCall;
  verifyUser(argument: _unigate_billing_v1_VerifyUserRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_billing_v1_VerifyUserReply__Output>): grpc.ClientUnaryCall;
  verifyUser(argument: _unigate_billing_v1_VerifyUserRequest, callback: grpc.requestCallback<_unigate_billing_v1_VerifyUserReply__Output>): grpc.ClientUnaryCall;
  
}

export interface BillingServiceHandlers extends grpc.UntypedServiceImplementation {
  Authenticate: grpc.handleUnaryCall<_unigate_billing_v1_AuthenticateRequest__Output, _unigate_billing_v1_AuthenticateReply>;
  
  CreateAccount: grpc.handleUnaryCall<_unigate_billing_v1_CreateAccountRequest__Output, _unigate_billing_v1_Account>;
  
  CreateKey: grpc.handleUnaryCall<_unigate_billing_v1_CreateKeyRequest__Output, _unigate_billing_v1_CreatedKey>;
  
  Credit: grpc.handleUnaryCall<_unigate_billing_v1_CreditRequest__Output, _unigate_billing_v1_CreditReply>;
  
  GetAccount: grpc.handleUnaryCall<_unigate_billing_v1_AccountRef__Output, _unigate_billing_v1_Account>;
  
  GetAccountMoney: grpc.handleUnaryCall<_unigate_billing_v1_AccountRef__Output, _unigate_billing_v1_AccountMoneyReply>;
  
  GetQuota: grpc.handleUnaryCall<_unigate_billing_v1_QuotaRequest__Output, _unigate_billing_v1_Quota>;
  
  GetUsageSummary: grpc.handleUnaryCall<_unigate_billing_v1_UsageSummaryRequest__Output, _unigate_billing_v1_UsageSummary>;
  
  ListKeys: grpc.handleUnaryCall<_unigate_billing_v1_AccountRef__Output, _unigate_billing_v1_KeyList>;
  
  ListUsage: grpc.handleUnaryCall<_unigate_billing_v1_UsageListRequest__Output, _unigate_billing_v1_UsageList>;
  
  RegisterUser: grpc.handleUnaryCall<_unigate_billing_v1_RegisterUserRequest__Output, _unigate_billing_v1_User>;
  
  ReleaseHold: grpc.handleUnaryCall<_unigate_billing_v1_ReleaseHoldRequest__Output, _unigate_billing_v1_Empty>;
  
  RevokeKey: grpc.handleUnaryCall<_unigate_billing_v1_KeyRef__Output, _unigate_billing_v1_Empty>;
  
  SetAccountTier: grpc.handleUnaryCall<_unigate_billing_v1_SetAccountTierRequest__Output, _unigate_billing_v1_SetAccountTierRequest>;
  
  UpdateKey: grpc.handleUnaryCall<_unigate_billing_v1_UpdateKeyRequest__Output, _unigate_billing_v1_KeySettings>;
  
  VerifyUser: grpc.handleUnaryCall<_unigate_billing_v1_VerifyUserRequest__Output, _unigate_billing_v1_VerifyUserReply>;
  
}

export interface BillingServiceDefinition extends grpc.ServiceDefinition {
  Authenticate: MethodDefinition<_unigate_billing_v1_AuthenticateRequest, _unigate_billing_v1_AuthenticateReply, _unigate_billing_v1_AuthenticateRequest__Output, _unigate_billing_v1_AuthenticateReply__Output>
  CreateAccount: MethodDefinition<_unigate_billing_v1_CreateAccountRequest, _unigate_billing_v1_Account, _unigate_billing_v1_CreateAccountRequest__Output, _unigate_billing_v1_Account__Output>
  CreateKey: MethodDefinition<_unigate_billing_v1_CreateKeyRequest, _unigate_billing_v1_CreatedKey, _unigate_billing_v1_CreateKeyRequest__Output, _unigate_billing_v1_CreatedKey__Output>
  Credit: MethodDefinition<_unigate_billing_v1_CreditRequest, _unigate_billing_v1_CreditReply, _unigate_billing_v1_CreditRequest__Output, _unigate_billing_v1_CreditReply__Output>
  GetAccount: MethodDefinition<_unigate_billing_v1_AccountRef, _unigate_billing_v1_Account, _unigate_billing_v1_AccountRef__Output, _unigate_billing_v1_Account__Output>
  GetAccountMoney: MethodDefinition<_unigate_billing_v1_AccountRef, _unigate_billing_v1_AccountMoneyReply, _unigate_billing_v1_AccountRef__Output, _unigate_billing_v1_AccountMoneyReply__Output>
  GetQuota: MethodDefinition<_unigate_billing_v1_QuotaRequest, _unigate_billing_v1_Quota, _unigate_billing_v1_QuotaRequest__Output, _unigate_billing_v1_Quota__Output>
  GetUsageSummary: MethodDefinition<_unigate_billing_v1_UsageSummaryRequest, _unigate_billing_v1_UsageSummary, _unigate_billing_v1_UsageSummaryRequest__Output, _unigate_billing_v1_UsageSummary__Output>
  ListKeys: MethodDefinition<_unigate_billing_v1_AccountRef, _unigate_billing_v1_KeyList, _unigate_billing_v1_AccountRef__Output, _unigate_billing_v1_KeyList__Output>
  ListUsage: MethodDefinition<_unigate_billing_v1_UsageListRequest, _unigate_billing_v1_UsageList, _unigate_billing_v1_UsageListRequest__Output, _unigate_billing_v1_UsageList__Output>
  RegisterUser: MethodDefinition<_unigate_billing_v1_RegisterUserRequest, _unigate_billing_v1_User, _unigate_billing_v1_RegisterUserRequest__Output, _unigate_billing_v1_User__Output>
  ReleaseHold: MethodDefinition<_unigate_billing_v1_ReleaseHoldRequest, _unigate_billing_v1_Empty, _unigate_billing_v1_ReleaseHoldRequest__Output, _unigate_billing_v1_Empty__Output>
  RevokeKey: MethodDefinition<_unigate_billing_v1_KeyRef, _unigate_billing_v1_Empty, _unigate_billing_v1_KeyRef__Output, _unigate_billing_v1_Empty__Output>
  SetAccountTier: MethodDefinition<_unigate_billing_v1_SetAccountTierRequest, _unigate_billing_v1_SetAccountTierRequest, _unigate_billing_v1_SetAccountTierRequest__Output, _unigate_billing_v1_SetAccountTierRequest__Output>
  UpdateKey: MethodDefinition<_unigate_billing_v1_UpdateKeyRequest, _unigate_billing_v1_KeySettings, _unigate_billing_v1_UpdateKeyRequest__Output, _unigate_billing_v1_KeySettings__Output>
  VerifyUser: MethodDefinition<_unigate_billing_v1_VerifyUserRequest, _unigate_billing_v1_VerifyUserReply, _unigate_billing_v1_VerifyUserRequest__Output, _unigate_billing_v1_VerifyUserReply__Output>
}
