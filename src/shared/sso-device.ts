/** The answer of the gateway's device login start (RFC 8628 through netinv): what the gateway sends and the command line reads. */
export interface DeviceStart {
  /** What the client polls with (a secret: whoever holds it gets the session). */
  deviceRequest: string
  userCode: string
  verificationUri: string
  verificationUriComplete?: string
  expiresIn: number
  interval: number
}
