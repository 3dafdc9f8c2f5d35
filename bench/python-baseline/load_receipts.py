"""The receipt loader a user would write with Python and psycopg 3: bench/ingest-python's baseline (issue 35).

Reads every gzip JSONL file under a directory, one transaction per file. Each record's account name is replaced by
its keyed SHA-256 (it is never stored), the record is kept as jsonb with a SHA-256 of its bytes, and every transaction
entry it lists (in_app, latest_receipt_info, an iOS 6 receipt's own) is COPYed beside it; the file's transactions
then go into py_purchase once each (first copy wins). A line that is not a JSON object goes to py_bad_line.

It does less than iap-audit (no record identity across files, no conflicts, no date checks, no signed data), so the
ratio it gives is in the baseline's favour. A benchmark's tool only: nothing in the product or CI needs Python.

    python load_receipts.py DATABASE_URL DIRECTORY
"""

import gzip
import hashlib
import hmac
import json
import os
import sys

import psycopg

SCHEMA = """
CREATE TABLE IF NOT EXISTS py_receipt (
    id bigint PRIMARY KEY, file text NOT NULL, line integer NOT NULL, record_sha256 bytea NOT NULL,
    account_hash bytea, recorded_at text, environment text, bundle_id text, status integer, raw jsonb NOT NULL);
CREATE TABLE IF NOT EXISTS py_receipt_transaction (
    receipt_id bigint NOT NULL, source text NOT NULL, ordinal integer NOT NULL, environment text NOT NULL,
    transaction_id text NOT NULL, original_transaction_id text, product_id text, quantity integer,
    purchase_date_ms bigint, expires_date_ms bigint, cancellation_date_ms bigint,
    PRIMARY KEY (receipt_id, source, ordinal));
CREATE TABLE IF NOT EXISTS py_purchase (
    environment text NOT NULL, transaction_id text NOT NULL, original_transaction_id text, product_id text,
    quantity integer, purchase_date timestamptz, expires_date timestamptz, cancellation_date timestamptz,
    first_receipt_id bigint NOT NULL, PRIMARY KEY (environment, transaction_id));
CREATE TABLE IF NOT EXISTS py_bad_line (file text NOT NULL, line integer NOT NULL, message text NOT NULL);
"""

MERGE = """
INSERT INTO py_purchase (environment, transaction_id, original_transaction_id, product_id, quantity, purchase_date,
    expires_date, cancellation_date, first_receipt_id)
SELECT DISTINCT ON (environment, transaction_id) environment, transaction_id, original_transaction_id, product_id,
    quantity, to_timestamp(purchase_date_ms / 1000.0), to_timestamp(expires_date_ms / 1000.0),
    to_timestamp(cancellation_date_ms / 1000.0), receipt_id
FROM py_receipt_transaction
WHERE receipt_id >= %s AND receipt_id < %s
ORDER BY environment, transaction_id, receipt_id, source, ordinal
ON CONFLICT (environment, transaction_id) DO NOTHING
"""

PEPPER = b"bench-python-baseline"


def integer(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def entry_row(receipt_id, source, ordinal, environment, entry):
    if not isinstance(entry, dict) or not isinstance(entry.get("transaction_id"), str):
        return None
    return (receipt_id, source, ordinal, environment, entry["transaction_id"], entry.get("original_transaction_id"),
            entry.get("product_id"), integer(entry.get("quantity", 1)), integer(entry.get("purchase_date_ms")),
            integer(entry.get("expires_date_ms")), integer(entry.get("cancellation_date_ms")))


def load_file(connection, path, file_number):
    receipts, entries, bad = [], [], []
    with gzip.open(path, "rb") as lines:
        for number, line in enumerate(lines, 1):
            try:
                record = json.loads(line)
            except ValueError as error:
                bad.append((path, number, str(error)[:200]))
                continue
            if not isinstance(record, dict):
                bad.append((path, number, "not an object"))
                continue
            name = record.pop("application_username", None)
            account = hmac.new(PEPPER, name.encode(), hashlib.sha256).digest() if isinstance(name, str) else None
            response = record.get("response") if isinstance(record.get("response"), dict) else {}
            receipt = response.get("receipt") if isinstance(response.get("receipt"), dict) else {}
            environment = response.get("environment") if isinstance(response.get("environment"), str) else "Production"
            receipt_id = (file_number << 32) + number
            raw = json.dumps(record, ensure_ascii=False)
            receipts.append((receipt_id, path, number, hashlib.sha256(line).digest(), account,
                             record.get("recorded_at"), environment, receipt.get("bundle_id"),
                             integer(response.get("status")), raw))
            rows = [entry_row(receipt_id, "receipt", 0, environment, receipt)] if "transaction_id" in receipt else []
            for source, listed in (("in_app", receipt.get("in_app")),
                                   ("latest_receipt_info", response.get("latest_receipt_info"))):
                if isinstance(listed, list):
                    rows += [entry_row(receipt_id, source, i, environment, e) for i, e in enumerate(listed)]
            entries += [row for row in rows if row is not None]
    with connection.transaction(), connection.cursor() as cursor:
        with cursor.copy("COPY py_receipt FROM STDIN") as copy:
            for row in receipts:
                copy.write_row(row)
        with cursor.copy("COPY py_receipt_transaction FROM STDIN") as copy:
            for row in entries:
                copy.write_row(row)
        with cursor.copy("COPY py_bad_line FROM STDIN") as copy:
            for row in bad:
                copy.write_row(row)
        cursor.execute(MERGE, (file_number << 32, (file_number + 1) << 32))
    return len(receipts), len(entries), len(bad)


def main():
    url, directory = sys.argv[1], sys.argv[2]
    paths = sorted(os.path.join(d, f) for d, _, files in os.walk(directory) for f in files if f.endswith(".gz"))
    totals = [0, 0, 0]
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute("SET synchronous_commit = off")
        connection.execute(SCHEMA)
        for number, path in enumerate(paths, 1):
            for i, count in enumerate(load_file(connection, path, number)):
                totals[i] += count
    print(f"files: {len(paths)}\nrecords: {totals[0]}\ntransaction entries: {totals[1]}\nbad lines: {totals[2]}")


if __name__ == "__main__":
    main()
