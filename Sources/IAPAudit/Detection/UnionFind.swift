/// Disjoint sets over `0..<count` whose representative is always the smallest member.
///
/// Store-account nodes are numbered so that the smallest node of a cluster is its smallest original transaction,
/// which names the cluster: keeping the minimum as the root makes the key fall out of `find`.
struct UnionFind {
    private var parent: [Int32]

    init(count: Int) {
        parent = (0..<Int32(count)).map { $0 }
    }

    var count: Int { parent.count }

    /// The smallest member of `node`'s set.
    mutating func find(_ node: Int32) -> Int32 {
        var current = node
        while parent[Int(current)] != current {
            // Path halving: each step also shortens the path for the next lookup.
            let grandparent = parent[Int(parent[Int(current)])]
            parent[Int(current)] = grandparent
            current = grandparent
        }
        return current
    }

    /// Joins the sets of `a` and `b`.
    mutating func union(_ a: Int32, _ b: Int32) {
        let rootA = find(a)
        let rootB = find(b)
        if rootA < rootB {
            parent[Int(rootB)] = rootA
        } else if rootB < rootA {
            parent[Int(rootA)] = rootB
        }
    }
}
