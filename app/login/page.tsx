// The login page (per-user tokens): the form reads `next`, where to go back to afterwards.
import type { Metadata } from 'next';
import { Suspense } from 'react';
import { LoginForm } from '@/components/session/login-form';
import { OidcSignIn } from '@/components/session/oidc-sign-in';

export const metadata: Metadata = { title: 'Log in · OLM Console' };

export default function LoginPage() {
  return (
    <Suspense fallback={<p role="status">Loading…</p>}>
      <OidcSignIn />
      <LoginForm />
    </Suspense>
  );
}
