import { lazy, Suspense } from 'react';
import { Center, Loader } from '@mantine/core';
import { Navigate, Route, Routes } from 'react-router';
import { featureRoutes, preloadFeaturePage } from './feature-routes';
import { NotFoundPage } from '../pages/not-found-page';
import { isMyWorkPath, isSignedInPath } from './signed-in-path';

// The public pages (their forms and the subdomain dialog) load only when visited: the shell stays small.
const PublicLayout = lazy(() => import('./layouts/public-layout').then((m) => ({ default: m.PublicLayout })));
const LandingPage = lazy(() => import('../pages/marketing-pages').then((m) => ({ default: m.LandingPage })));
const FeaturesPage = lazy(() => import('../pages/marketing-pages').then((m) => ({ default: m.FeaturesPage })));
const PricingPage = lazy(() => import('../pages/marketing-pages').then((m) => ({ default: m.PricingPage })));
const ContactPage = lazy(() => import('../pages/marketing-pages').then((m) => ({ default: m.ContactPage })));
const DemoRequestPage = lazy(() => import('../pages/demo-request-page').then((m) => ({ default: m.DemoRequestPage })));

const LoginPage = lazy(() => import('../../features/auth/ui/login-page'));
const RegisterPage = lazy(() => import('../../features/auth/ui/register-page'));
const CompleteRegistrationPage = lazy(() => import('../../features/auth/ui/complete-registration-page'));
// Where the identity provider sends the browser back after single sign-on (decision 077).
const SsoCallbackPage = lazy(() => import('../../features/auth/ui/sso-callback-page'));
const KitDemoPage = lazy(() => import('../pages/kit-demo-page'));
// The signed-in shell and the charts load only when needed: the landing and login pages stay small.
const loadDashboardLayout = () => import('./layouts/dashboard-layout');
const ProtectedArea = lazy(() => loadDashboardLayout().then((m) => ({ default: m.ProtectedArea })));
const AnalyticsPage = lazy(() => import('../pages/analytics-page').then((m) => ({ default: m.AnalyticsPage })));
// The contractor's page of a shared work order: public, outside the shell (decision 040).
const ContractorPage = lazy(() => import('../../features/work-order-shares/ui/contractor-page'));
// The technician's app: its own small shell, outside the manager's (it must open offline without a session).
const loadMyWork = () => import('../../features/my-work/ui/my-work-page');
const MyWorkPage = lazy(loadMyWork);

/**
 * On a signed-in page's cold load, fetches the shell and the page's modules while the session is being resolved
 * (instead of one after the other once it is): the list shows sooner. True for a signed-in area's path.
 */
export function preloadSignedInRoute(pathname: string): boolean {
  if (!isSignedInPath(pathname)) return false;
  if (isMyWorkPath(pathname)) {
    void loadMyWork();
    return true;
  }
  void loadDashboardLayout();
  preloadFeaturePage(pathname.replace(/\/+$/, ''));
  return true;
}

const spinner = (
  <Center h="60vh">
    <Loader />
  </Center>
);

/** Every route of spec section 2 (public, /dashboard/*, /settings/*) and a not-found page. */
export function AppRoutes() {
  return (
    <Suspense fallback={spinner}>
      <Routes>
        <Route element={<PublicLayout />}>
          <Route index element={<LandingPage />} />
          <Route path="features" element={<FeaturesPage />} />
          <Route path="pricing" element={<PricingPage />} />
          <Route path="contact" element={<ContactPage />} />
          <Route path="demo-request" element={<DemoRequestPage />} />
        </Route>
        <Route path="login" element={<LoginPage />} />
        <Route path="register" element={<RegisterPage />} />
        <Route path="invite" element={<CompleteRegistrationPage />} />
        <Route path="complete-registration" element={<CompleteRegistrationPage />} />
        <Route path="shared-work-order" element={<ContractorPage />} />
        <Route path="sso/callback" element={<SsoCallbackPage />} />
        <Route path="dashboard/my-work" element={<MyWorkPage />} />
        <Route element={<ProtectedArea />}>
          <Route path="dashboard" element={<Navigate to="/dashboard/work-orders" replace />} />
          <Route path="dashboard/analytics" element={<AnalyticsPage />} />
          <Route path="dashboard/ui" element={<KitDemoPage />} />
          <Route path="settings" element={<Navigate to="/settings/products-category" replace />} />
          {featureRoutes.map(({ path, Page }) => (
            <Route key={path} path={path.slice(1)} element={<Page />} />
          ))}
          <Route path="dashboard/*" element={<NotFoundPage />} />
          <Route path="settings/*" element={<NotFoundPage />} />
        </Route>
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </Suspense>
  );
}
