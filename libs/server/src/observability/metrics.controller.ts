import { Controller, Get, Header } from '@nestjs/common';
import { Access } from '../auth/access.decorator';
import { QuarryMetrics } from './metrics';

/** Prometheus scrape endpoint; counts only, no data, so it is public like the health probes. */
@Controller()
export class MetricsController {
  constructor(private readonly metrics: QuarryMetrics) {}

  @Get('metrics')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  @Access({ tokens: 'any', public: true })
  scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
