require('./dist/observability/telemetry-register');
