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

  /// Places `text` on `row` right of `after` (else left of `before`), shortened to the
  /// room there, with at least `minimum` characters; returns its x, anchor and text.
  mutating func placeText(_ text: String, after: Double, before: Double, y: Double, row: Int, minimum: Int = 8)
    -> (x: Double, anchorEnd: Bool, text: String)?
  {
    let height = 12.0
    for anchorEnd in [false, true] {
      var shown = text
      while shown.count >= min(minimum, text.count) {
        let width = Self.width(of: shown)
        let x = anchorEnd ? before - width : after
        if isFree(Box(x: x, y: y, width: width, height: height), row: row) {
          take(Box(x: x, y: y, width: width, height: height), row: row)
          return (anchorEnd ? before : after, anchorEnd, shown)
        }
        guard shown.count > minimum else { break }
        shown = String(text.prefix(max(minimum, shown.count * 2 / 3) - 1)) + "…"
      }
    }
    return nil
  }
}
