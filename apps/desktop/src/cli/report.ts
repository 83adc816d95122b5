/** The one line per file the headless intake prints. */
import { formatBytes } from '@vita-docs/core';
import type { IntakeReport } from './uploader.js';

/** One line per file event; stable words first so scripts can grep them. */
export function formatReport(report: IntakeReport): string {
  const name = report.scan.relPath;
  switch (report.kind) {
    case 'uploaded':
      return `uploaded ${name} -> ${report.uploadedAs} (${formatBytes(report.size)})`;
    case 'already-there':
      return `uploaded ${name} -> ${report.uploadedAs} (found on the server after a restart)`;
    case 'failed':
      return `failed ${name}: ${report.error}${report.retryInMs === null ? '' : ` (retrying in ${Math.round(report.retryInMs / 1000)} s)`}`;
    case 'skipped':
      return `skipped ${name}: ${report.reason}`;
  }
}
