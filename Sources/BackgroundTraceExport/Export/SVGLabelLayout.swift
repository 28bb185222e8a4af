/// Places the timeline's markers and labels so that none overlaps another: each is a
/// box on one row (a lane, a group's header or the findings row), tried where it belongs
/// first and then nudged aside, or given up when no place is free.
package struct SVGLabelLayout {
  /// A placed box, in the drawing's coordinates.
  package struct Box: Equatable {
    package var x: Double
    package var y: Double
    package var width: Double
    package var height: Double

    /// Whether the two boxes share any area.
    package func intersects(_ other: Box) -> Bool {
      x < other.x + other.width && other.x < x + width && y < other.y + other.height && other.y < y + height
    }
  }

  /// The width of one character of the timeline's 11-pixel text, rounded up.
  static let characterWidth = 6.2
  /// The leftmost and rightmost place a box may take.
  let left: Double
  let right: Double
  /// The boxes placed so far on each row.
  private var rows: [Int: [Box]] = [:]
  /// The bars drawn on each row: a text is never written over one (a marker may sit on
  /// its bar, where the event is).
  private var bars: [Int: [Box]] = [:]
  /// Every box placed, in placing order.
  package private(set) var placed: [Box] = []

  /// A layout whose boxes stay between `left` and `right`.
  init(left: Double, right: Double) {
    self.left = left
    self.right = right
  }

  /// The width of `text` drawn at 11 pixels.
  static func width(of text: String) -> Double { Double(text.count) * characterWidth }

  /// Whether `box` is free on `row`.
  func isFree(_ box: Box, row: Int) -> Bool {
    box.x >= left && box.x + box.width <= right && !(rows[row] ?? []).contains { $0.intersects(box) }
  }

  /// Notes a bar drawn on `row`, for ``placeText(_:after:before:y:row:minimum:drift:floor:)``
  /// to keep clear of.
  mutating func noteBar(_ box: Box, row: Int) {
    bars[row, default: []].append(box)
  }

  /// Takes `box` on `row` without checking it (a bar's marker that must stay where it is).
  mutating func take(_ box: Box, row: Int) {
    rows[row, default: []].append(box)
    placed.append(box)
  }

  /// Places a `width` × `height` marker centred on `x` when free there, else the nearest
  /// free place 2 pixels apart up to `reach` pixels either side; returns its centre.
  mutating func placeMarker(x: Double, y: Double, width: Double, height: Double, row: Int, reach: Double = 120)
    -> Double?
  {
    var offset = 0.0
    while offset <= reach {
      for candidate in offset == 0 ? [x] : [x + offset, x - offset] {
        let box = Box(x: candidate - width / 2, y: y, width: width, height: height)
        if isFree(box, row: row) {
          take(box, row: row)
          return candidate
        }
      }
      offset += 2
    }
    return nil
  }

  /// Places `text` on `row` right of `after` (else left of `before`), past any box in
  /// the way by at most `drift` pixels, shortened to the room there but kept to at least
  /// `minimum` characters, and right of `floor` when given; returns where it starts (ends, when `anchorEnd`) and the text.
  mutating func placeText(
    _ text: String, after: Double, before: Double, y: Double, row: Int, minimum: Int = 8, drift: Double = 48,
    floor: Double? = nil
  ) -> (x: Double, anchorEnd: Bool, text: String)? {
    let left = max(self.left, floor ?? self.left)
    let height = 12.0
    let least = Self.width(of: String(text.prefix(minimum)))
    let boxes = ((rows[row] ?? []) + (bars[row] ?? [])).filter { $0.y < y + height && y < $0.y + $0.height }
    for anchorEnd in [false, true] {
      // Slide away from the marker past whatever is in the way of the shortest text.
      var edge = anchorEnd ? before : after
      var moved = true
      while moved, abs(edge - (anchorEnd ? before : after)) <= drift {
        moved = false
        let probe = anchorEnd ? edge - least : edge
        if let blocker = boxes.first(where: { $0.x < probe + least && probe < $0.x + $0.width }) {
          edge = anchorEnd ? blocker.x - 3 : blocker.x + blocker.width + 3
          moved = true
        }
      }
      guard !moved else { continue }
      // The room up to the next box (or the margin) on that side.
      let room =
        anchorEnd
        ? edge - (boxes.filter { $0.x + $0.width <= edge }.map { $0.x + $0.width + 3 }.max() ?? left).clamped(left)
        : (boxes.filter { $0.x >= edge }.map { $0.x - 3 }.min() ?? right).clamped(to: right) - edge
      let fits = Int(room / Self.characterWidth)
      guard fits >= min(minimum, text.count) else { continue }
      let shown = text.count <= fits ? text : String(text.prefix(fits - 1)) + "…"
      let width = Self.width(of: shown)
      take(Box(x: anchorEnd ? edge - width : edge, y: y, width: width, height: height), row: row)
      return (edge, anchorEnd, shown)
    }
    return nil
  }
}

extension Double {
  /// At least `low`.
  fileprivate func clamped(_ low: Double) -> Double { Swift.max(self, low) }
  /// At most `high`.
  fileprivate func clamped(to high: Double) -> Double { Swift.min(self, high) }
}
