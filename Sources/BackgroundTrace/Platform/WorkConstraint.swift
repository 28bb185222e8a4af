/// The network a work request needs (androidx `NetworkType`, `Constraints.Builder
/// .setRequiredNetworkType`).
public enum NetworkType: String, Sendable, Hashable, CaseIterable {
  /// Any network connection (`CONNECTED`).
  case connected
  /// An unmetered one, such as Wi-Fi (`UNMETERED`).
  case unmetered
  /// One that is not roaming (`NOT_ROAMING`).
  case notRoaming = "not-roaming"
  /// A metered one, such as cellular data (`METERED`).
  case metered
  /// One that is metered in general but not for now (`TEMPORARILY_UNMETERED`, a carrier's
  /// network with `NET_CAPABILITY_TEMPORARILY_NOT_METERED`).
  case temporarilyUnmetered = "temporarily-unmetered"

  /// The constraint it makes.
  public var constraint: WorkConstraint {
    switch self {
    case .connected: .network
    case .unmetered: .unmetered
    case .notRoaming: .notRoaming
    case .metered: .metered
    case .temporarilyUnmetered: .temporarilyUnmetered
    }
  }
}

/// The device's conditions a work request's constraints are met by: its network
/// connection, power, battery, storage and use.
public struct DeviceConditions: Sendable, Hashable {
  /// Whether it has a network connection.
  public var networkConnected: Bool
  /// Whether that connection is metered (cellular data); an unmetered one is Wi-Fi.
  public var networkMetered: Bool
  /// Whether that connection is roaming.
  public var networkRoaming: Bool
  /// Whether it is on external power.
  public var charging: Bool
  /// Whether its battery is low (``BatteryLevel``).
  public var batteryLow: Bool
  /// Whether its storage is low.
  public var storageLow: Bool
  /// Whether it is idle: not in use for a while (``WorkConstraint/deviceIdle``).
  public var idle: Bool
  /// Whether the connection counts as temporarily not metered for
  /// ``WorkConstraint/temporarilyUnmetered``: it has `NET_CAPABILITY_TEMPORARILY_NOT_METERED`
  /// (Android 11 and later), or, on earlier releases, where WorkManager asks
  /// JobScheduler for any network instead, it is connected.
  public var networkTemporarilyUnmetered: Bool

  /// Conditions of the values given, a connection never temporarily unmetered.
  public init(
    networkConnected: Bool = true, networkMetered: Bool = false, networkRoaming: Bool = false, charging: Bool = false,
    batteryLow: Bool = false, storageLow: Bool = false, idle: Bool = false
  ) {
    self.init(
      networkConnected: networkConnected, networkMetered: networkMetered, networkRoaming: networkRoaming,
      charging: charging, batteryLow: batteryLow, storageLow: storageLow, idle: idle,
      networkTemporarilyUnmetered: false)
  }

  /// Conditions of the values given.
  public init(
    networkConnected: Bool, networkMetered: Bool, networkRoaming: Bool, charging: Bool, batteryLow: Bool,
    storageLow: Bool, idle: Bool, networkTemporarilyUnmetered: Bool
  ) {
    self.networkConnected = networkConnected
    self.networkMetered = networkMetered
    self.networkRoaming = networkRoaming
    self.charging = charging
    self.batteryLow = batteryLow
    self.storageLow = storageLow
    self.idle = idle
    self.networkTemporarilyUnmetered = networkTemporarilyUnmetered
  }
}

/// One thing a work request needs of the device before it runs (androidx
/// `Constraints`), declared once with what meets it, why a request waits for it
/// (``WaitReason``), the stop reason when it is lost while the work runs
/// (``WorkStopReason``), whether expedited work may have it, and its word in the
/// trace (`work.enqueue needs=`).
public enum WorkConstraint: String, Sendable, Hashable, CaseIterable {
  /// A network connection (`NetworkType.CONNECTED`).
  case network
  /// An unmetered network connection (`NetworkType.UNMETERED`).
  case unmetered
  /// A network connection that is not roaming (`NetworkType.NOT_ROAMING`).
  case notRoaming = "not-roaming"
  /// A metered network connection (`NetworkType.METERED`).
  case metered
  /// External power (`setRequiresCharging`).
  case charging
  /// A battery that is not low (`setRequiresBatteryNotLow`).
  case batteryNotLow = "battery-not-low"
  /// Storage that is not low (`setRequiresStorageNotLow`).
  case storageNotLow = "storage-not-low"
  /// An idle device (`setRequiresDeviceIdle`).
  case deviceIdle = "device-idle"
  /// A temporarily unmetered network connection (`NetworkType.TEMPORARILY_UNMETERED`).
  case temporarilyUnmetered = "temporarily-unmetered"

  /// Whether `device` meets it.
  public func isMet(by device: DeviceConditions) -> Bool {
    switch self {
    case .network: device.networkConnected
    case .unmetered: device.networkConnected && !device.networkMetered
    case .notRoaming: device.networkConnected && !device.networkRoaming
    case .metered: device.networkConnected && device.networkMetered
    case .charging: device.charging && !device.batteryLow  // "stable power" (``BatteryLevel``)
    case .batteryNotLow: !device.batteryLow
    case .storageNotLow: !device.storageLow
    case .deviceIdle: device.idle
    case .temporarilyUnmetered: device.networkConnected && device.networkTemporarilyUnmetered
    }
  }

  /// The androidx call that asks for it.
  public var androidxCall: String {
    switch self {
    case .network: "setRequiredNetworkType(NetworkType.CONNECTED)"
    case .unmetered: "setRequiredNetworkType(NetworkType.UNMETERED)"
    case .notRoaming: "setRequiredNetworkType(NetworkType.NOT_ROAMING)"
    case .metered: "setRequiredNetworkType(NetworkType.METERED)"
    case .charging: "setRequiresCharging(true)"
    case .batteryNotLow: "setRequiresBatteryNotLow(true)"
    case .storageNotLow: "setRequiresStorageNotLow(true)"
    case .deviceIdle: "setRequiresDeviceIdle(true)"
    case .temporarilyUnmetered: "setRequiredNetworkType(NetworkType.TEMPORARILY_UNMETERED)"
    }
  }

  /// When the device meets it, as the model reads ``isMet(by:)``.
  public var metWhen: String {
    switch self {
    case .network: "any network connection"
    case .unmetered: "a connection that is not metered (Wi-Fi)"
    case .notRoaming: "a connection that is not roaming"
    case .metered: "a metered connection (cellular data)"
    case .charging: "on external power with a battery that is not low (JobScheduler's \"stable power\")"
    case .batteryNotLow:
      "the battery is not low: low from 15 % unplugged until it is back at 20 %, plugging in or not (`BatteryLevel`)"
    case .storageNotLow: "storage is not low"
    case .deviceIdle: "the screen has been off for 31 minutes (`SimulationConfiguration.deviceIdleThreshold`)"
    case .temporarilyUnmetered:
      "a connection with `NET_CAPABILITY_TEMPORARILY_NOT_METERED` (`SimulatedSystem.setNetworkTemporarilyUnmetered`); before Android 11, any connection, as WorkManager asks JobScheduler for any network there"
    }
  }

  /// The constraints as docs/events.md lists them ("Work constraints"): a Markdown
  /// table of each word, the androidx call and when the model counts it met. `swift
  /// test` checks that the page holds exactly this table.
  package static var documentationTable: String {
    var table = "| constraint | androidx | met when |\n|---|---|---|\n"
    for constraint in allCases {
      table += "| `\(constraint.rawValue)` | `\(constraint.androidxCall)` | \(constraint.metWhen) |\n"
    }
    return table
  }

  /// Why a due request that needs it waits while `device` does not meet it
  /// (JobScheduler's `PENDING_JOB_REASON_CONSTRAINT_*`): charging on a low battery is
  /// not the stable power the charging constraint asks for, so it waits for the battery.
  public func waitReason(on device: DeviceConditions) -> WaitReason {
    switch self {
    case .network, .unmetered, .notRoaming, .metered, .temporarilyUnmetered: .network
    case .charging: device.charging ? .battery : .power
    case .batteryNotLow: .battery
    case .storageNotLow: .storage
    case .deviceIdle: .deviceIdle
    }
  }

  /// Why a running request that needs it is stopped when it is lost (JobScheduler's
  /// `STOP_REASON_CONSTRAINT_*`).
  public var stopReason: WorkStopReason {
    switch self {
    case .network, .unmetered, .notRoaming, .metered, .temporarilyUnmetered: .constraintConnectivity
    case .charging: .constraintCharging
    case .batteryNotLow: .constraintBatteryNotLow
    case .storageNotLow: .constraintStorageNotLow
    case .deviceIdle: .constraintDeviceIdle
    }
  }

  /// Whether an expedited request may have it: androidx `WorkRequest.Builder.build()`
  /// allows "only network and storage constraints" on expedited work.
  public var isAllowedOnExpeditedWork: Bool {
    switch self {
    case .network, .unmetered, .notRoaming, .metered, .temporarilyUnmetered, .storageNotLow: true
    case .charging, .batteryNotLow, .deviceIdle: false
    }
  }

  /// `constraints` as the binary form writes them: bit N for the declaration's case N.
  package static func bits(_ constraints: Set<WorkConstraint>) -> UInt64 {
    var bits: UInt64 = 0
    for (index, constraint) in allCases.enumerated() where constraints.contains(constraint) { bits |= 1 << index }
    return bits
  }

  /// The constraints `bits` names, or `nil` when it is zero or has a bit no constraint has.
  @usableFromInline
  package static func constraints(bits: UInt64) -> Set<WorkConstraint>? {
    guard bits != 0, bits >> allCases.count == 0 else { return nil }
    return Set(allCases.enumerated().filter { bits & (1 << $0.offset) != 0 }.map(\.element))
  }

  /// `constraints` as `needs=` writes them: the words in declaration order, joined by
  /// `+` (`network+charging`); `nil` for none.
  public static func field(_ constraints: Set<WorkConstraint>) -> String? {
    constraints.isEmpty ? nil : allCases.filter(constraints.contains).map(\.rawValue).joined(separator: "+")
  }

  /// The constraints a `needs=` value names, or `nil` when it is empty or names a word
  /// that is not a constraint.
  public static func parse(_ field: String) -> Set<WorkConstraint>? {
    guard !field.isEmpty else { return nil }
    var constraints = Set<WorkConstraint>()
    for word in field.split(separator: "+", omittingEmptySubsequences: false) {
      guard let constraint = WorkConstraint(rawValue: String(word)) else { return nil }
      constraints.insert(constraint)
    }
    return constraints
  }
}
