// Original file: proto/billing.proto


export interface Empty {
}

export interface Empty__Output {
}
