internal import JoryioCore
public import JoryioKit

extension Joryio {
    /// The shared instance apps use: every feature of the `Joryio` product.
    public static let shared = Joryio(catalog: .joryio)

    /// Creates an independent instance with every feature of the `Joryio` product, for an extra
    /// workspace (a second SDK key).
    public convenience init() {
        self.init(catalog: .joryio)
    }

    private convenience init(catalog: FeatureCatalog) {
        self.init(environment: .live(), features: catalog)
    }
}

extension FeatureCatalog {
    /// The `Joryio` product: the analytics features, then push over the OS's services; in-app and
    /// e-commerce join as their modules arrive (one registration line each).
    /// The notification-center delegate is installed when `initialize()` accepts its key, on its
    /// thread, before any first-unlock wait (INIT-16, PUSH-20, issue 26).
    /// What the platform cannot do (no push, no in-app display) is logged once at start.
    static let joryio = FeatureCatalog.joryio(push: FeatureCatalog.livePushPlatform)
        .onInitializeCall { NotificationCenterDelegate.install($0) }
        .onInitialize { $0.logPlatformSupport() }
}
