import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The console is a static SPA served by the Quarry server (libs/console-static) at `/`; `npm run dev`
// proxies the API to a server on QUARRY_URL (default http://127.0.0.1:3000).
const api = process.env.QUARRY_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react()],
  base: '/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 700,
    rollupOptions: {
      output: {
        // The editor and the charts are split from the app shell and load with the pages that use them.
        manualChunks(id) {
          if (id.includes('node_modules/@codemirror') || id.includes('node_modules/@lezer')) return 'editor';
          if (id.includes('node_modules/uplot')) return 'charts';
          if (
            id.includes('node_modules/react-grid-layout') ||
            id.includes('node_modules/react-draggable') ||
            id.includes('node_modules/react-resizable')
          )
            return 'grid';
          if (id.includes('node_modules/react') || id.includes('node_modules/scheduler')) return 'react';
          return undefined;
        },
      },
    },
  },
  server: {
    proxy: Object.fromEntries(['/v1', '/v2'].map((p) => [p, { target: api, changeOrigin: false }])),
  },
});
