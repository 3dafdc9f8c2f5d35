/// The tab-separated fields of one line, as slices of it (no copies).
struct RowFields {
    let line: ArraySlice<UInt8>
    /// Two offsets per field, relative to `line.startIndex`: start and end.
    let bounds: [UInt32]

    var count: Int { bounds.count / 2 }

    @inline(__always)
    subscript(index: Int) -> ArraySlice<UInt8> {
        line[(line.startIndex + Int(bounds[2 * index]))..<(line.startIndex + Int(bounds[2 * index + 1]))]
    }
}
