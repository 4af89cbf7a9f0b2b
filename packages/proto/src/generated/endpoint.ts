import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { Attachment as _unigate_endpoint_v1_Attachment, Attachment__Output as _unigate_endpoint_v1_Attachment__Output } from './unigate/endpoint/v1/Attachment';
import type { Blob as _unigate_endpoint_v1_Blob, Blob__Output as _unigate_endpoint_v1_Blob__Output } from './unigate/endpoint/v1/Blob';
import type { CallCost as _unigate_endpoint_v1_CallCost, CallCost__Output as _unigate_endpoint_v1_CallCost__Output } from './unigate/endpoint/v1/CallCost';
import type { EndpointCall as _unigate_endpoint_v1_EndpointCall, EndpointCall__Output as _unigate_endpoint_v1_EndpointCall__Output } from './unigate/endpoint/v1/EndpointCall';
import type { EndpointFrame as _unigate_endpoint_v1_EndpointFrame, EndpointFrame__Output as _unigate_endpoint_v1_EndpointFrame__Output } from './unigate/endpoint/v1/EndpointFrame';
import type { EndpointReply as _unigate_endpoint_v1_EndpointReply, EndpointReply__Output as _unigate_endpoint_v1_EndpointReply__Output } from './unigate/endpoint/v1/EndpointReply';
import type { EndpointServiceClient as _unigate_endpoint_v1_EndpointServiceClient, EndpointServiceDefinition as _unigate_endpoint_v1_EndpointServiceDefinition } from './unigate/endpoint/v1/EndpointService';
import type { SessionCall as _unigate_endpoint_v1_SessionCall, SessionCall__Output as _unigate_endpoint_v1_SessionCall__Output } from './unigate/endpoint/v1/SessionCall';
import type { SessionEnd as _unigate_endpoint_v1_SessionEnd, SessionEnd__Output as _unigate_endpoint_v1_SessionEnd__Output } from './unigate/endpoint/v1/SessionEnd';
import type { SessionError as _unigate_endpoint_v1_SessionError, SessionError__Output as _unigate_endpoint_v1_SessionError__Output } from './unigate/endpoint/v1/SessionError';
import type { SessionRelease as _unigate_endpoint_v1_SessionRelease, SessionRelease__Output as _unigate_endpoint_v1_SessionRelease__Output } from './unigate/endpoint/v1/SessionRelease';
import type { SessionReply as _unigate_endpoint_v1_SessionReply, SessionReply__Output as _unigate_endpoint_v1_SessionReply__Output } from './unigate/endpoint/v1/SessionReply';
import type { SessionStop as _unigate_endpoint_v1_SessionStop, SessionStop__Output as _unigate_endpoint_v1_SessionStop__Output } from './unigate/endpoint/v1/SessionStop';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  unigate: {
    endpoint: {
      v1: {
        Attachment: MessageTypeDefinition<_unigate_endpoint_v1_Attachment, _unigate_endpoint_v1_Attachment__Output>
        Blob: MessageTypeDefinition<_unigate_endpoint_v1_Blob, _unigate_endpoint_v1_Blob__Output>
        CallCost: MessageTypeDefinition<_unigate_endpoint_v1_CallCost, _unigate_endpoint_v1_CallCost__Output>
        EndpointCall: MessageTypeDefinition<_unigate_endpoint_v1_EndpointCall, _unigate_endpoint_v1_EndpointCall__Output>
        EndpointFrame: MessageTypeDefinition<_unigate_endpoint_v1_EndpointFrame, _unigate_endpoint_v1_EndpointFrame__Output>
        EndpointReply: MessageTypeDefinition<_unigate_endpoint_v1_EndpointReply, _unigate_endpoint_v1_EndpointReply__Output>
        EndpointService: SubtypeConstructor<typeof grpc.Client, _unigate_endpoint_v1_EndpointServiceClient> & { service: _unigate_endpoint_v1_EndpointServiceDefinition }
        SessionCall: MessageTypeDefinition<_unigate_endpoint_v1_SessionCall, _unigate_endpoint_v1_SessionCall__Output>
        SessionEnd: MessageTypeDefinition<_unigate_endpoint_v1_SessionEnd, _unigate_endpoint_v1_SessionEnd__Output>
        SessionError: MessageTypeDefinition<_unigate_endpoint_v1_SessionError, _unigate_endpoint_v1_SessionError__Output>
        SessionRelease: MessageTypeDefinition<_unigate_endpoint_v1_SessionRelease, _unigate_endpoint_v1_SessionRelease__Output>
        SessionReply: MessageTypeDefinition<_unigate_endpoint_v1_SessionReply, _unigate_endpoint_v1_SessionReply__Output>
        SessionStop: MessageTypeDefinition<_unigate_endpoint_v1_SessionStop, _unigate_endpoint_v1_SessionStop__Output>
      }
    }
  }
}

