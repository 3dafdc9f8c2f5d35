/// A category or series name as a chart shows it: its characters, with every invisible control as one visible marker.
///
/// A label that must be cut keeps its head and its tail (`com.example.…premium.yearly`), since the names in one chart
/// tend to share a prefix (a bundle id, a date) and differ at the end.
struct ChartLabel: Equatable {
    /// One character of the label, or one invisible control shown as `⟨U+202E⟩`.
    enum Piece: Equatable {
        case character(Character)
        case control(Unicode.Scalar)

        /// The width in character cells.
        var width: Int {
            switch self {
            case .character: 1
            case .control(let scalar): ReportRenderer.controlMarker(scalar).count
            }
        }
    }

    /// The text the label was made from.
    let text: String
    /// What is shown, in order.
    let pieces: [Piece]

    /// Splits `text` into pieces; controls are taken out before grouping characters, so a zero-width joiner shows.
    init(_ text: String) {
        self.text = text
        var pieces: [Piece] = []
        var run = String.UnicodeScalarView()
        func flush() {
            pieces += String(run).map(Piece.character)
            run = String.UnicodeScalarView()
        }
        for scalar in text.unicodeScalars {
            if ReportRenderer.isInvisibleControl(scalar) {
                flush()
                pieces.append(.control(scalar))
            } else {
                run.append(scalar)
            }
        }
        flush()
        self.pieces = pieces
    }

    /// The width in character cells, markers included.
    var width: Int {
        pieces.reduce(0) { $0 + $1.width }
    }

    /// The pieces to show within `limit` cells: all of them, or a head and a tail around the ellipsis.
    func shortened(to limit: Int) -> (head: ArraySlice<Piece>, tail: ArraySlice<Piece>?) {
        guard width > limit else { return (pieces[...], nil) }
        let budget = max(limit - 1, 2)
        // The tail gets the larger share: names differ most often at the end (monthly/yearly, the day).
        let headBudget = budget * 2 / 5
        let tailBudget = budget - headBudget
        var headEnd = 0
        var used = 0
        while headEnd < pieces.count, used + pieces[headEnd].width <= headBudget {
            used += pieces[headEnd].width
            headEnd += 1
        }
        var tailStart = pieces.count
        used = 0
        while tailStart > headEnd, used + pieces[tailStart - 1].width <= tailBudget {
            used += pieces[tailStart - 1].width
            tailStart -= 1
        }
        return (pieces[..<headEnd], pieces[tailStart...])
    }

    /// The shown width within `limit` cells.
    func shownWidth(limit: Int) -> Int {
        min(width, limit)
    }

    /// Writes the label into an SVG `<text>`, cut to `limit` cells; a cut label carries its full text as `<title>`.
    ///
    /// When the cut takes out a control, the ellipsis is drawn as one, so the label still says that it holds one.
    func write(limit: Int, to out: inout RenderBuffer) {
        let (head, tail) = shortened(to: limit)
        Self.write(head, to: &out)
        guard let tail else { return }
        let cut = pieces[head.endIndex..<tail.startIndex]
        let cutsControl = cut.contains { if case .control = $0 { true } else { false } }
        out.write(cutsControl ? "<tspan class=\"control\">…</tspan>" : "…")
        Self.write(tail, to: &out)
        out.write("<title>")
        ReportRenderer.appendHTMLEscaped(text, to: &out)
        out.write("</title>")
    }

    private static func write(_ pieces: ArraySlice<Piece>, to out: inout RenderBuffer) {
        var run = ""
        for piece in pieces {
            switch piece {
            case .character(let character):
                run.append(character)
            case .control(let scalar):
                ReportRenderer.appendHTMLEscaped(run, to: &out)
                run = ""
                ReportRenderer.appendHTMLEscaped(String(scalar), controls: .svgTSpan, to: &out)
            }
        }
        ReportRenderer.appendHTMLEscaped(run, to: &out)
    }
}
