package triage

import _ "github.com/recap-dev/recap/reports/reportstest" // the -update flag of every test binary
