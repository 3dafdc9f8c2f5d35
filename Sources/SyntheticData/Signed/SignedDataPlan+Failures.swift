/// The planted failures of the signed data: one record per failure outcome, one Xcode-signed, two no JWS at all.
extension SignedDataPlan {
    /// One record per failure outcome, one Xcode-signed record, two that are no JWS at all.
    mutating func plantFailures(firstAccountIndex: Int) throws {
        let account = makeAccount(index: firstAccountIndex, known: false)
        let time = start + 3 * Self.day + 7 * Self.hour
        let product = catalog.consumablesByApp[account.app].first ?? 0

        // bad-signature: signed, then the price changed.
        var payload = forged(account, product: product, at: time)
        var text = try chain.sign(payload, by: chain.current)
        let tampered = payload.setting("price", to: .integer(10))
        let parts = text.split(separator: ".")
        text = parts[0] + "." + SignedJSON.base64URL(tampered.bytes) + "." + parts[2]
        plant(
            "bad-signature", "a genuine signature over a payload whose price was changed after signing",
            line: envelope(
                account, at: time + 4_000, "signed_transaction",
                .jws(Self.token(tampered, text: text, signer: chain.current.name, outcome: "bad-signature", at: time)),
                shape: "envelope-signed-transaction", part: "planted"),
            severity: "high")

        // untrusted-chain: Apple's shape, another root.
        payload = forged(account, product: product, at: time + Self.hour)
        text = try chain.sign(payload, by: chain.impostor)
        plant(
            "untrusted-chain", "an Apple-shaped chain up to a root nobody trusts",
            line: Line(
                part: "planted", time: time + Self.hour, shape: "jws-line",
                body: .jws(
                    Self.token(
                        payload, text: text, signer: chain.impostor.name, outcome: "untrusted-chain",
                        at: time + Self.hour))),
            severity: "high")

        // missing-apple-oid: the trusted intermediate's leaf made for something else.
        payload = forged(account, product: product, at: time + 2 * Self.hour)
        text = try chain.sign(payload, by: chain.withoutAppleOID)
        plant(
            "missing-apple-oid", "a leaf of the trusted intermediate without the receipt-signing OID",
            line: Line(
                part: "planted", time: time + 2 * Self.hour, shape: "transaction-info",
                body: .object([
                    (
                        "signedTransactionInfo",
                        .jws(
                            Self.token(
                                payload, text: text, signer: chain.withoutAppleOID.name,
                                outcome: "missing-apple-oid", at: time + 2 * Self.hour))
                    )
                ])),
            severity: "high")
        try plantBadHeaders(account, product: product, at: time)
        try plantTestAndBroken(account, product: product, at: time, tester: firstAccountIndex + 1)
    }

    /// Headers that do not verify: a retired leaf, HS256, no x5c.
    private mutating func plantBadHeaders(_ account: Account, product: Int, at time: Int64) throws {
        // expired-at-signed-date: the retired leaf, two days after it expired.
        let late = chain.retiredUntil + 2 * Self.day
        var payload = forged(account, product: product, at: late - 3_000)
        var text = try chain.sign(payload, by: chain.retired)
        plant(
            "expired-at-signed-date", "signed by the retired leaf two days after it expired",
            line: Line(
                part: "planted", time: late, shape: "jws-string",
                body: .jws(
                    Self.token(
                        payload, text: text, signer: chain.retired.name, outcome: "expired-at-signed-date",
                        at: late - 3_000))),
            severity: "high")

        // unsupported-algorithm: the header claims HS256 over a genuine chain.
        payload = forged(account, product: product, at: time + 3 * Self.hour)
        text = try chain.sign(payload, by: chain.current, algorithm: "HS256")
        plant(
            "unsupported-algorithm", "a header whose alg is HS256",
            line: Line(
                part: "planted", time: time + 3 * Self.hour, shape: "jws-line",
                body: .jws(
                    Self.token(
                        payload, text: text, signer: chain.current.name, outcome: "unsupported-algorithm",
                        at: time + 3 * Self.hour))),
            severity: "high")

        // missing-x5c: no certificate chain at all.
        payload = forged(account, product: product, at: time + 4 * Self.hour)
        text = try chain.sign(payload, by: chain.current, includesChain: false)
        plant(
            "missing-x5c", "a header without x5c",
            line: envelope(
                account, at: time + 4 * Self.hour, "signed_transaction",
                .jws(Self.token(payload, text: text, signer: "none", outcome: "missing-x5c", at: time + 4 * Self.hour)),
                shape: "envelope-signed-transaction", part: "planted"),
            severity: "high")
    }

    /// A record Xcode's StoreKit testing signed, and two that are no JWS.
    private mutating func plantTestAndBroken(
        _ account: Account, product: Int, at time: Int64, tester testerIndex: Int
    ) throws {
        // Xcode's StoreKit testing: one self-signed certificate, environment Xcode, a test account.
        let tester = makeAccount(index: testerIndex, known: false)
        let payload = forged(account, product: product, at: time + 5 * Self.hour, environment: "Xcode")
        let text = try chain.sign(payload, by: chain.xcode)
        plant(
            "missing-x5c",
            "signed by Xcode's StoreKit testing (one certificate, environment Xcode): test "
                + "data, not a sale",
            line: envelope(
                tester, at: time + 5 * Self.hour, "signed_transaction",
                .jws(
                    Self.token(
                        payload, text: text, signer: chain.xcode.name, outcome: "missing-x5c", at: time + 5 * Self.hour)
                ),
                shape: "envelope-signed-transaction", part: "planted"),
            severity: "info")

        // invalid-jws: two parts; and three parts whose payload is not base64url.
        let header = String(text.split(separator: ".")[0])
        let broken = [
            (header + "." + SignedJSON.base64URL(payload.bytes), "a JWS of two parts (no signature)"),
            (
                header + ".eyJ0cmFuc2FjdGlvbklkIjo!!!." + String(text.split(separator: ".")[2]),
                "a JWS whose payload is not base64url"
            ),
        ]
        for (offset, (brokenText, description)) in broken.enumerated() {
            let brokenTime = time + Int64(6 + offset) * Self.hour
            plant(
                "invalid-jws", description,
                line: Line(
                    part: "planted", time: brokenTime, shape: "jws-line",
                    body: .jws(
                        SignedToken(
                            text: brokenText, payload: nil,
                            facts: SignedManifest.Facts(
                                kind: "transaction", transactionID: nil, originalTransactionID: nil, environment: "",
                                signedDate: 0, signer: "none", outcome: "invalid-jws"))),
                    rawText: brokenText),
                severity: nil)
        }
    }

    /// A transaction payload claiming `environment`, for a planted failure.
    private mutating func forged(
        _ account: Account, product: Int, at time: Int64, environment: String = "Production"
    ) -> SignedJSON {
        let transaction = newTransaction(account, product: product, at: time)
        return transactionPayload(transaction, account, at: time + 3_000, environment: environment)
    }

    private static func token(
        _ payload: SignedJSON, text: String, signer: String, outcome: String, at time: Int64
    ) -> SignedToken {
        SignedToken(
            text: text, payload: payload,
            facts: SignedManifest.Facts(
                kind: "transaction", transactionID: payload["transactionId"]?.stringValue,
                originalTransactionID: payload["originalTransactionId"]?.stringValue,
                environment: payload["environment"]?.stringValue ?? "", signedDate: time + 3_000, signer: signer,
                outcome: outcome))
    }

    private mutating func plant(_ outcome: String, _ description: String, line: Line, severity: String?) {
        lines.append(line)
        planted.append(
            PlantedRecord(outcome: outcome, description: description, line: lines.count - 1, severity: severity))
    }
}
