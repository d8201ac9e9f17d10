// podium-client/api: the API as generated from Podium's OpenAPI document (typescript-fetch): every API class, request
// and answer type. Give an API class `podium.configuration` to share a Podium's token and errors.
export * from "../generated/index.js";
