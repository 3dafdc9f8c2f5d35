internal import Foundation

/// What the stand-in answers one request with.
struct StandInResponse: Sendable {
    var status: Int
    var headers: [(String, String)] = []
    var body: [UInt8] = []
    /// A misbehaviour to act out instead of a clean response.
    var fault: StandInFault?

    /// Apple's App Store Connect error form: `{"errors": [{"id", "status", "code", "title", "detail"}]}`.
    static func connectError(_ status: Int, code: String, title: String, detail: String) -> StandInResponse {
        let object: [String: Any] = [
            "errors": [
                ["id": UUID().uuidString, "status": "\(status)", "code": code, "title": title, "detail": detail]
            ]
        ]
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return StandInResponse(status: status, headers: [("Content-Type", "application/json")], body: Array(body))
    }

    /// Apple's App Store Server API error form: `{"errorCode": 4040010, "errorMessage": "…"}`.
    static func serverError(_ status: Int, code: Int, message: String) -> StandInResponse {
        let object: [String: Any] = ["errorCode": code, "errorMessage": message]
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return StandInResponse(status: status, headers: [("Content-Type", "application/json")], body: Array(body))
    }

    static let unauthorized = connectError(
        401, code: "NOT_AUTHORIZED", title: "Authentication credentials are missing or invalid.",
        detail: "Provide a properly configured and signed bearer token, and make sure that it has not expired.")
}
