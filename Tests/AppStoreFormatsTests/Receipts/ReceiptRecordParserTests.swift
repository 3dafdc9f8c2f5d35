import Testing

@testable import AppStoreFormats

struct ReceiptRecordParserTests {
    let parser = ReceiptRecordParser(hasher: AccountKeyHasher(pepper: nil))

    func envelope(_ fields: String, response: String = #"{"status": 0}"#) -> [UInt8] {
        Array(#"{\#(fields)\#(fields.isEmpty ? "" : ", ")"response": \#(response)}"#.utf8)
    }

    func failure(_ bytes: [UInt8]) -> ReceiptRecordError? {
        do {
            _ = try parser.parse(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func hashesTheUsernameAndCutsItFromTheStoredRecord() throws {
        let receipt = try parser.parse(envelope(#""application_username": "userNameOnYourServer""#))
        #expect(receipt.accountKey == "5041a3e2-63c6694a-fb3d6633-6c85ce5b-b6be5894-efcc93f4-4d98c7fe-4a548a68")
        let stored = String(decoding: receipt.storedRecord, as: UTF8.self)
        #expect(!stored.contains("userNameOnYourServer"))
        #expect(!stored.contains("application_username"))
        #expect(try JSONParser.parse(receipt.storedRecord).object?["response"] != nil)
    }

    @Test func acceptsAWellFormedHashAndLowercasesIt() throws {
        let hash = "5041A3E2-63C6694A-FB3D6633-6C85CE5B-B6BE5894-EFCC93F4-4D98C7FE-4A548A68"
        let receipt = try parser.parse(envelope(#""application_username_hash": "\#(hash)""#))
        #expect(receipt.accountKey == hash.lowercased())
    }

    @Test func rejectsAMalformedHashWithoutEchoingIt() {
        let error = failure(envelope(#""application_username_hash": "alice@example.com""#))
        #expect(error?.code == .invalidUsernameHash)
        #expect(error?.message.contains("alice") == false)
    }

    @Test func rejectsAHashThatContradictsTheUsername() {
        let other = AccountKeyHasher.appleHash(of: "bob")
        let error = failure(
            envelope(#""application_username": "alice", "application_username_hash": "\#(other)""#))
        #expect(error?.code == .usernameHashMismatch)
        #expect(error?.message.contains("alice") == false)
    }

    @Test func rejectsANonTextUsernameWithoutEchoingIt() {
        let error = failure(envelope(#""application_username": {"name": "alice"}"#))
        #expect(error?.code == .wrongType)
        #expect(error?.message.contains("alice") == false)
    }

    @Test func recordsTokenStoreAccountAndRecordedAt() throws {
        let receipt = try parser.parse(
            envelope(
                #""recorded_at": "2014-03-02T10:11:12+01:00", "app_account_token": "6B29FC40-CA47-1067-B31D-00DD010662DA", "store_account": 42, "receipt_data": "MIIT""#
            ))
        #expect(receipt.recordedAt?.postgresText == "2014-03-02 09:11:12+00")
        #expect(receipt.appAccountToken == "6b29fc40-ca47-1067-b31d-00dd010662da")
        #expect(receipt.storeAccount == "42")
        #expect(receipt.receiptDataSHA256?.count == 32)
    }

    @Test func quarantinesImpossibleDatesNamingTheFieldAndValue() {
        let response =
            #"{"status": 0, "receipt": {"bundle_id": "a", "in_app": [{"product_id": "p", "transaction_id": "1", "purchase_date": "2014-13-45 07:00:00 Etc/GMT"}]}}"#
        let error = failure(envelope("", response: response))
        #expect(error?.code == .invalidDate)
        #expect(
            error?.message
                == #""response.receipt.in_app[0].purchase_date" is not a date ("2014-13-45 07:00:00 Etc/GMT")"#)
    }

    @Test func quarantinesWrongTypes() {
        let error = failure(envelope("", response: #"{"status": 0, "receipt": {"bundle_id": "a", "in_app": "nope"}}"#))
        #expect(error?.code == .wrongType)
        #expect(error?.message.contains("response.receipt.in_app") == true)
    }

    @Test func quarantinesIntegersThatDoNotFitTheirColumns() throws {
        let status = failure(envelope("", response: #"{"status": 3000000000}"#))
        #expect(status?.code == .invalidNumber)
        #expect(status?.message.contains("out of range") == true)
        let quantity =
            #"{"status": 0, "receipt": {"bid": "a", "product_id": "p", "transaction_id": "1", "quantity": "-99999999999"}}"#
        #expect(failure(envelope("", response: quantity))?.code == .invalidNumber)
        #expect(failure(envelope("", response: #"{"status": "2.5"}"#))?.message.contains("not an integer") == true)
        #expect(try parser.parse(envelope("", response: #"{"status": 2147483647}"#)).status == 2_147_483_647)
    }

    @Test func quarantinesARecordWithoutResponse() {
        #expect(failure(Array(#"{"recorded_at": "2014-03-02T10:11:12Z"}"#.utf8))?.code == .missingResponse)
        #expect(failure(Array(#"[1, 2]"#.utf8))?.code == .notAnObject)
        #expect(failure(Array(#"{"response": {"status": 0"#.utf8))?.code == .invalidJSON)
        #expect(failure(Array(#"{"response": {}}"#.utf8))?.code == .missingField)
    }

    @Test func quarantinesNULCharactersThatPostgreSQLTextCannotHold() {
        let response = #"{"status": 0, "receipt": {"bid": "a", "product_id": "p\u0000", "transaction_id": "1"}}"#
        #expect(failure(envelope("", response: response))?.code == .nulCharacter)
    }

    @Test func treatsStatus21007AsSandbox() throws {
        let receipt = try parser.parse(envelope("", response: #"{"status": 21007}"#))
        #expect(receipt.isSandbox)
    }

    @Test func readsASingleObjectLatestReceiptInfo() throws {
        let response =
            #"{"status": 0, "receipt": {"bid": "a", "product_id": "p", "transaction_id": "1"}, "latest_receipt_info": {"bid": "a", "product_id": "p", "transaction_id": "2", "original_transaction_id": "1"}}"#
        let receipt = try parser.parse(envelope("", response: response))
        #expect(receipt.transactions.map(\.transactionID) == ["1", "2"])
    }

    /// UUIDs (every signed transaction's `appAccountToken`), read over bytes since issue 35: lowercased, and refused
    /// for a wrong length, a dash out of place or a character that is not hex, as before.
    @Test func readsUUIDsInCanonicalLowercaseAndRefusesEverythingElse() throws {
        let canonical = "6b29fc40-ca47-1067-b31d-00dd010662da"
        #expect(try ReceiptRecordParser.uuid(canonical, field: "f") == canonical)
        #expect(try ReceiptRecordParser.uuid(canonical.uppercased(), field: "f") == canonical)
        #expect(try ReceiptRecordParser.uuid("6B29fc40-CA47-1067-b31d-00DD010662da", field: "f") == canonical)
        for text in [
            "", String(canonical.dropLast()), canonical + "0", "6b29fc40ca47-1067-b31d-00dd010662da-",
            "6b29fc40-ca47-1067-b31d-00dd010662dg", "6b29fc4--ca47-1067-b31d-00dd010662da",
            "6b29fc40-ca47-1067-b31d-00dd010662d\u{E9}", "{6b29fc40-ca47-1067-b31d-00dd010662d}",
        ] {
            #expect(throws: ReceiptRecordError.self, "\(text)") { try ReceiptRecordParser.uuid(text, field: "f") }
        }
    }
}
