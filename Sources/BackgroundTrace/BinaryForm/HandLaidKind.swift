/// The kinds whose binary records have layouts of their own (codes 0 to 26,
/// docs/FORMAT.md, the record table). Files with them exist, so these layouts never
/// change and this set never grows: every later kind is laid out from its spec
/// (``SpecLayout``). The codec and the walker's compact dispatch switch over it, so a
/// new kind needs no case there; it takes the spec path.
@usableFromInline
package enum HandLaidKind: UInt8, Sendable, CaseIterable, BitwiseCopyable {
  case appLaunch = 0, appState, appTerminate, taskBegin, taskEnd, taskExpire, schedRegister, schedSubmit,
    schedReject, schedCancel, schedLaunch, schedExpire, schedComplete, workEnqueue, workStart, workResult,
    workStop, workCancel, envSet, input, mark, netCreate, netSubmit, netFinish, netWake, netEventsDone, netHandler

  /// How many kinds are hand-laid: the first code laid out from its spec.
  @inlinable static var count: UInt8 { 27 }
}

extension EventTag {
  /// The kind's hand-laid layout, or `nil` for a kind laid out from its spec.
  ///
  /// A range check and a bit cast: the cases are declared in code order from 0, so a
  /// case's tag is its code (`theHandLaidKindsAreTheCodesBelowTheSpecLayouts`), and the
  /// decoder asks this for every record.
  @inlinable
  package var handLaid: HandLaidKind? {
    rawValue < HandLaidKind.count ? unsafeBitCast(rawValue, to: HandLaidKind.self) : nil
  }
}
