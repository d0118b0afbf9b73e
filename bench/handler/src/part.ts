/** What one part of bench/handler hands back to the runner: lines to print, figures to compare. */
export interface PartResult {
  lines: string[];
  figures?: Record<string, number>;
}
