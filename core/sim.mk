# core/sim fragment (owned by the sim work)
