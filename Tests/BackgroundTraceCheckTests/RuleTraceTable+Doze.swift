import BackgroundTraceCheck

extension RuleTraceTable {
  /// `work-outlasts-doze-window` (docs/rules.md): AOSP `DeviceIdleJobsController` defers
  /// jobs in Doze and stops running ones when idle begins (`STOP_REASON_DEVICE_STATE`);
  /// a light maintenance window lasts `DEFAULT_LIGHT_IDLE_MAINTENANCE_MIN_BUDGET`, one
  /// minute.
  static let dozeCases: [TraceCase] = [
    TraceCase(
      file: "work-outlasts-doze-window.fires.txt",
      expected: [
        finding(
          .workOutlastsDozeWindow, line: 16, at: "420 work.stop work=sync attempt=1 reason=doze",
          "work sync attempt 1 was stopped by Doze, as the attempt before it", "maintenance window")
      ]),
    TraceCase(file: "work-outlasts-doze-window.near-miss.txt", expected: []),

    // `alarm-exact-deferred`: AOSP `AlarmManagerService` holds an alarm without
    // `FLAG_ALLOW_WHILE_IDLE` or `FLAG_WAKE_FROM_IDLE` in deep Doze until
    // `DeviceIdleController`'s idle-until alarm (`mPendingIdleUntil`).
    TraceCase(
      file: "alarm-exact-deferred.fires.txt",
      expected: [
        finding(
          .alarmExactDeferred, line: 12, at: "7200 alarm.fire alarm=backup",
          "exact alarm backup was due at 4000s and went off at 7200s", "deep Doze")
      ]),
    TraceCase(file: "alarm-exact-deferred.near-miss.txt", expected: []),

    // `alarm-repeat-clamped`: AOSP `AlarmManagerService.setImpl` expands a repeating
    // interval under `MIN_INTERVAL` (`DEFAULT_MIN_INTERVAL`, 60 s) to it.
    TraceCase(
      file: "alarm-repeat-clamped.fires.txt",
      expected: [
        finding(
          .alarmRepeatClamped, line: 8, at: "1 alarm.set alarm=poll at=31 type=repeating interval=30",
          "repeating alarm poll asked to repeat every 30s: Android repeats it every 60s at most", "MIN_INTERVAL")
      ]),
    TraceCase(file: "alarm-repeat-clamped.near-miss.txt", expected: []),
  ]
}
