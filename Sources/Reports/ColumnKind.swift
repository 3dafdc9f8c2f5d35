/// The kind of values a report column holds; it decides alignment, CSV neutralising and JSON typing.
package enum ColumnKind: String, Sendable, Hashable, CaseIterable {
    case text
    case integer
    case decimal
    case boolean
    case date
    case timestamp
    case json

    /// The kind for a PostgreSQL type OID as libpq reports it (`PQftype`); any other type is shown as text.
    package init(postgresTypeOID oid: UInt32) {
        switch oid {
        case 20, 21, 23, 26: self = .integer  // int8, int2, int4, oid
        case 700, 701, 1700: self = .decimal  // float4, float8, numeric
        case 16: self = .boolean
        case 1082: self = .date
        case 1114, 1184: self = .timestamp  // timestamp, timestamptz
        case 114, 3802: self = .json  // json, jsonb
        default: self = .text
        }
    }

    /// Whether values are numbers: right-aligned, and written as numbers in CSV and JSON.
    var isNumeric: Bool { self == .integer || self == .decimal }
}
