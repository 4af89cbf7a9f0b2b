// Original file: proto/endpoint.proto


export interface SessionStop {
}

export interface SessionStop__Output {
}
