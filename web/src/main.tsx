import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import 'react-toastify/dist/ReactToastify.css';
import { throttleFocusRefetch } from './api/query.ts';
import { initI18n } from './i18n/index.ts';
import { router } from './router.tsx';
import './styles.css';

await initI18n();
throttleFocusRefetch();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
