// Original file: proto/catalog.proto


export interface ListRequest {
}

export interface ListRequest__Output {
}
