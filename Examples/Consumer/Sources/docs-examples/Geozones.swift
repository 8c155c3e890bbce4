import Joryio
import JoryioGeozones

// The README's geozones sample, verbatim: the opt-in product, started and stopped explicitly.
func readmeGeozones() {
    Joryio.shared.geozones.startLocationTracking()  // asks for location permission if needed
    // … Joryio.shared.geozones.stopLocationTracking()
}

// Stopping is public too.
func stopGeozones() {
    Joryio.shared.geozones.stopLocationTracking()
}
