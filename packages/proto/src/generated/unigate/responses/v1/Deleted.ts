// Original file: proto/responses.proto


export interface Deleted {
}

export interface Deleted__Output {
}
