import Foundation
import Generator
import Results
import Workloads

/// How long a whole run of a workload may take before it is taken for a hang: the default of
/// `ab --timeout` (docs/command-line.md#ab). Generous on purpose, a bound and not a forecast:
/// 5 minutes, plus for every configuration 10 seconds and a second per megabyte of responses for
/// each repetition and warm-up round (and one more for the allocation pass), plus the traffic's
/// bytes at 50 MB/s.
///
/// ```swift
/// let timeout = RunTimeout.default(for: arguments.has("quick") ? workload.quick() : workload)
/// ```
package enum RunTimeout {
  package static func `default`(for workload: Workload) -> Duration {
    let configurations = Double((try? ConfigurationSequence(workload).count) ?? 1)
    let megabytes = responseBytes(workload.source, file: workload.file) / 1e6
    let rounds = Double(workload.repetitions + workload.warmup + 1)
    // The longest session of any variant: a sweep of traffic.steps sets it per variant.
    let steps = workload.variants.map { $0.traffic?.steps ?? 0 }.max() ?? 0
    let trafficMegabytes = Double(steps) * megabytes / Double(max(1, responseCount(workload.source)))
    let seconds = 300 + configurations * (rounds * (10 + megabytes) + trafficMegabytes / 50)
    return .seconds(min(seconds, 7 * 86_400).rounded(.up))
  }

  /// The bytes of one variant's responses or records: estimated for the generator, the files'
  /// sizes for recorded responses.
  static func responseBytes(_ source: Workload.Source, file: String) -> Double {
    switch source {
    case .generator(let config): config.estimate.bytes
    case .storeRecords(let config): Double(config.count * StoreRecordsConfig.payloadBytesPerRecord)
    // The largest scenario's records, the pattern delete's 11,000, about 100 bytes each, and
    // the largest store size's background records, about 12 bytes a field.
    case .apolloTier2(let config):
      Double(ApolloTier2Records.patternDeleteRecords * 100 + (config.sizes.map { $0.records * $0.fields * 12 }.max() ?? 0))
    // The stores each layout builds, about 300 bytes a record in a file.
    case .apolloTier3(let config): Double(config.stores.reduce(0) { $0 + $1.records } * 300)
    // Every size's records of the three kinds, and the footprint's ten thousand elements each.
    case .lists(let config):
      Double((config.sizes.reduce(0, +) + config.sizes.count * ListsBenchmark.footprintElements) * 3 * ListsConfig.bytesPerElement)
    case .recorded(let recorded):
      recorded.operations.reduce(0) { total, operation in
        let size = (try? FileManager.default.attributesOfItem(atPath: operation.response)[.size] as? Int) ?? nil
        return total + Double(size ?? 0)
      }
    }
  }

  static func responseCount(_ source: Workload.Source) -> Int {
    switch source {
    case .generator(let config): config.responses
    case .storeRecords(let config): config.count
    case .apolloTier2: ApolloTier2Records.patternDeleteRecords
    case .apolloTier3(let config): config.stores.reduce(0) { $0 + $1.records }
    case .lists(let config): config.sizes.count * ListScenario.Elements.allCases.count
    case .recorded(let recorded): recorded.operations.count
    }
  }
}
