/** The tracing settings of the environment: off unless an OTLP endpoint is named; clear errors. */
import t from 'tap'
import { tracing, tracingSettings } from '../../../src/shared/tracing/index.js'

t.test('off unless an OTLP endpoint is set', async (t) => {
  t.equal(tracingSettings({}), undefined)
  t.equal(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: '' }), undefined)
  t.equal(tracing(), undefined, 'nothing started: no tracing in the process')
})

t.test('the endpoint, the service name, trust and the sample ratio', async (t) => {
  t.same(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }), { url: 'http://collector:4318/v1/traces', serviceName: 'netinv', trustTraceparent: false, sampleRatio: 1 })
  t.same(
    tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:4318/traces', OTEL_SERVICE_NAME: 'gw', NETINV_TRUST_TRACEPARENT: 'true', OTEL_TRACES_SAMPLER_ARG: '0.25' }),
    { url: 'http://b:4318/traces', serviceName: 'gw', trustTraceparent: true, sampleRatio: 0.25 },
    'the traces endpoint is taken whole',
  )
})

t.test('bad values are refused with the variable named', async (t) => {
  t.throws(() => tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318 x' }), /OTEL_EXPORTER_OTLP_ENDPOINT must be a URL \(http or https\)/)
  t.throws(() => tracingSettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'nope' }), /OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be a URL \(http or https\)/)
  t.throws(() => tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_SAMPLER_ARG: '2' }), /OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1/)
  t.throws(() => tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', NETINV_TRUST_TRACEPARENT: 'yes' }), /NETINV_TRUST_TRACEPARENT must be true or false/)
})
