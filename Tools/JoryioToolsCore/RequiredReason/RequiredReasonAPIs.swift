/// Apple's required-reason API list ("Describing use of required reason API"), the five categories a
/// privacy manifest declares under `NSPrivacyAccessedAPITypes`, as the Swift identifiers that name
/// them in source.
///
/// Matching is by identifier: `stat` counts whether it calls the function or names the struct, and
/// `creationDate` whether it is a `URLResourceValues` property or a `FileAttributeKey`. That is
/// deliberately conservative: Apple lists the `stat` family under file timestamps whatever field
/// the caller reads, so a size-only `fstat` needs a declared reason too (STORE-10, PRIVACY-7).
package enum RequiredReasonAPIs {
    /// One API category of Apple's list.
    package struct Category: Sendable, Hashable {
        /// The manifest key, such as `NSPrivacyAccessedAPICategoryFileTimestamp`.
        package var manifestKey: String
        /// The identifiers that use an API of this category.
        package var identifiers: Set<String>
    }

    /// File timestamp APIs.
    package static let fileTimestamp = Category(
        manifestKey: "NSPrivacyAccessedAPICategoryFileTimestamp",
        identifiers: [
            "creationDate", "modificationDate", "fileModificationDate", "fileCreationDate",
            "contentModificationDate", "contentModificationDateKey", "creationDateKey", "contentAccessDate",
            "contentAccessDateKey", "attributeModificationDate", "attributeModificationDateKey",
            "getattrlist", "getattrlistbulk", "fgetattrlist", "getattrlistat", "stat", "fstat", "fstatat", "lstat",
            "NSFileCreationDate", "NSFileModificationDate", "NSURLContentModificationDateKey",
            "NSURLCreationDateKey", "attributesOfItem",
        ]
    )

    /// System boot time APIs.
    package static let systemBootTime = Category(
        manifestKey: "NSPrivacyAccessedAPICategorySystemBootTime",
        identifiers: ["systemUptime", "mach_absolute_time"]
    )

    /// Disk space APIs.
    package static let diskSpace = Category(
        manifestKey: "NSPrivacyAccessedAPICategoryDiskSpace",
        identifiers: [
            "volumeAvailableCapacityKey", "volumeAvailableCapacityForImportantUsageKey",
            "volumeAvailableCapacityForOpportunisticUsageKey", "volumeTotalCapacityKey",
            "volumeAvailableCapacity", "volumeAvailableCapacityForImportantUsage",
            "volumeAvailableCapacityForOpportunisticUsage", "volumeTotalCapacity", "systemFreeSize", "systemSize",
            "NSFileSystemFreeSize", "NSFileSystemSize", "NSURLVolumeAvailableCapacityKey",
            "NSURLVolumeAvailableCapacityForImportantUsageKey", "NSURLVolumeAvailableCapacityForOpportunisticUsageKey",
            "NSURLVolumeTotalCapacityKey", "attributesOfFileSystem", "statfs", "fstatfs", "statvfs", "fstatvfs",
        ]
    )

    /// Active keyboard APIs.
    package static let activeKeyboards = Category(
        manifestKey: "NSPrivacyAccessedAPICategoryActiveKeyboards",
        identifiers: ["activeInputModes"]
    )

    /// User defaults APIs.
    package static let userDefaults = Category(
        manifestKey: "NSPrivacyAccessedAPICategoryUserDefaults",
        identifiers: ["UserDefaults", "NSUserDefaults"]
    )

    /// The five categories.
    package static let all: [Category] = [fileTimestamp, systemBootTime, diskSpace, activeKeyboards, userDefaults]

    /// The category of each identifier.
    package static let categoryByIdentifier: [String: Category] = {
        var map: [String: Category] = [:]
        for category in all {
            for identifier in category.identifiers { map[identifier] = category }
        }
        return map
    }()
}
