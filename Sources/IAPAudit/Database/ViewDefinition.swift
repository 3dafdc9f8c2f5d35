internal import Foundation

/// One view's current text, from `sql/views/<name>.sql` (on a Citus coordinator its `<name>.citus.sql` form where
/// it has one). Numbered migrations hold a view's history; this file holds what it is now, and the migrator
/// re-creates the view whenever the text differs from the one it recorded (docs/architecture.md, "Views").
package struct ViewDefinition: Sendable, Equatable {
    package let name: String
    package let text: String
    /// Roles granted SELECT each time the view is (re-)created, from the header line `-- readers: a, b`: a view that
    /// a numbered migration dropped comes back with its grants.
    package let readers: [String]
    package var checksum: String { SQLResources.checksum(text) }

    /// A view from its file's text; `readers` come from its header.
    package init(name: String, text: String) {
        self.name = name
        self.text = text
        self.readers =
            text.split(separator: "\n").prefix { $0.hasPrefix("--") }
            .compactMap { line -> [String]? in
                guard line.hasPrefix("-- readers:") else { return nil }
                return line.dropFirst("-- readers:".count).split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
            }.flatMap { $0 }
    }

    /// The views built into this binary in the forms `dialect` runs, each after the views it reads.
    package static func builtIn(for dialect: QueryDialect) throws(IAPAuditError) -> [ViewDefinition] {
        let files = EmbeddedResources.views
        let plain = files.filter { !$0.name.hasSuffix(".citus.sql") && $0.name.hasSuffix(".sql") }
        let views = plain.map { file in
            let name = String(file.name.dropLast(".sql".count))
            let citus = files.first { $0.name == name + ".citus.sql" }
            return ViewDefinition(name: name, text: dialect == .citus ? citus?.text ?? file.text : file.text)
        }
        return try inDependencyOrder(views)
    }

    /// `views` sorted so that each comes after every other it names (outside comments); by name where the order is
    /// free, so that it never depends on how the files were listed. A cycle cannot be created and is refused.
    package static func inDependencyOrder(_ views: [ViewDefinition]) throws(IAPAuditError) -> [ViewDefinition] {
        let names = Set(views.map(\.name))
        var pending = views.sorted { $0.name < $1.name }.map { view in
            (view: view, reads: view.namedWords.intersection(names).subtracting([view.name]))
        }
        var ordered: [ViewDefinition] = []
        var placed: Set<String> = []
        while !pending.isEmpty {
            guard let next = pending.firstIndex(where: { $0.reads.isSubset(of: placed) }) else {
                let cycle = pending.map(\.view.name).joined(separator: ", ")
                throw IAPAuditError.internalInconsistency("the views \(cycle) read each other in a cycle")
            }
            let view = pending.remove(at: next).view
            ordered.append(view)
            placed.insert(view.name)
        }
        return ordered
    }

    /// The identifiers the SQL names, comments left out.
    private var namedWords: Set<String> {
        var words: Set<String> = []
        for line in text.split(separator: "\n") {
            let code = line.range(of: "--").map { line[..<$0.lowerBound] } ?? line[...]
            let separators = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "_")).inverted
            for word in code.components(separatedBy: separators) where !word.isEmpty {
                words.insert(word.lowercased())
            }
        }
        return words
    }
}
