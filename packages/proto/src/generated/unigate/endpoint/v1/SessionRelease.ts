// Original file: proto/endpoint.proto


export interface SessionRelease {
}

export interface SessionRelease__Output {
}
