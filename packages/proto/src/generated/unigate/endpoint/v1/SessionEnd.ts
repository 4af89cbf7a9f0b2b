// Original file: proto/endpoint.proto


export interface SessionEnd {
}

export interface SessionEnd__Output {
}
