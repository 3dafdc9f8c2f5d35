/// A way the stand-in can be told to misbehave, for the next requests that match.
package enum StandInFault: Sendable, Equatable {
    /// 429 with `Retry-After: seconds` (nil: no header), as Apple answers past its rate limit.
    case tooManyRequests(retryAfter: Int?)
    /// 500.
    case serverError
    /// Headers and a few bytes, then nothing: a response that never ends.
    case neverEnding
    /// A `Content-Length` larger than the bytes sent, then the connection closed: a body cut in the middle.
    case cutBody
}
