import BackgroundTrace
import Foundation
import TestSupport
import Testing

/// docs/events.md lists the vocabulary as ``EventTag/spec`` declares it: the page's
/// table is the one ``KindSpec/vocabularyTable`` makes, so the docs follow from the one
/// declaration of each kind.
@Suite struct VocabularyDocsTests {
  @Test func theEventsPageHoldsTheDeclaredVocabulary() throws {
    let url = Repository.root.appendingPathComponent("docs/events.md")
    let page = try String(contentsOf: url, encoding: .utf8)
    let table = KindSpec.vocabularyTable
    #expect(page.contains(table), "docs/events.md is out of date; its table is:\n\(table)")
  }

  @Test func theEventsPageHoldsTheDeclaredWaitReasons() throws {
    let url = Repository.root.appendingPathComponent("docs/events.md")
    let page = try String(contentsOf: url, encoding: .utf8)
    let table = WaitReason.documentationTable
    #expect(page.contains(table), "docs/events.md is out of date; its wait-reason table is:\n\(table)")
  }

  @Test func theEventsPageHoldsTheDeclaredWorkConstraints() throws {
    let url = Repository.root.appendingPathComponent("docs/events.md")
    let page = try String(contentsOf: url, encoding: .utf8)
    let table = WorkConstraint.documentationTable
    #expect(page.contains(table), "docs/events.md is out of date; its constraint table is:\n\(table)")
  }

  /// Each kind's spec names its fields once, in the order its values come, and every
  /// kind's values round-trip through the spec (the vectors of
  /// `FormatVectorTests.everyKindVectors` hold every kind between them).
  @Test func everyKindRoundTripsThroughItsFieldValues() throws {
    let events = try FormatVectorTests.everyKindEvents()
    #expect(Set(events.map(\.kind.tag)) == Set(EventTag.allCases))
    for event in events where event.kind.tag != .envSet {
      let values = event.kind.fieldValues
      #expect(values.count == event.kind.tag.spec.fields.count, "\(event.kind.tag.name)")
      #expect(try TraceEvent.Kind(tag: event.kind.tag, fieldValues: values) == event.kind)
    }
    for kind in EventTag.allCases {
      let names = kind.spec.fields.map(\.name)
      #expect(Set(names).count == names.count, "\(kind.name) names a field twice")
    }
  }

  @Test func fieldValuesThatDoNotMakeAnEventAreErrorsNamingTheField() {
    #expect(throws: FieldError(field: nil, message: "task.begin is missing the required field 'id'")) {
      try TraceEvent.Kind(tag: .taskBegin, fieldValues: [nil, .string("Save")])
    }
    #expect(throws: FieldError(field: "id", message: "expected a non-negative integer for 'id'")) {
      try TraceEvent.Kind(tag: .taskBegin, fieldValues: [.string("1"), nil])
    }
    #expect(
      throws: FieldError(
        field: "outcome",
        message: "expected one of success, failure, retry for 'outcome'")
    ) {
      try TraceEvent.Kind(tag: .workResult, fieldValues: [.string("w"), .integer(0), .choice("maybe"), nil])
    }
    #expect(throws: FieldError(field: nil, message: "task.end takes 1 field value, one per field; got 2")) {
      try TraceEvent.Kind(tag: .taskEnd, fieldValues: [.integer(1), .integer(2)])
    }
  }
}
