import { Suspense } from 'react';
import { LoginForm } from '@/components/session/login-form';
import { OidcSignIn } from '@/components/session/oidc-sign-in';

export default function LoginPage() {
  return (
    <Suspense fallback={<p role="status">Loading…</p>}>
      <OidcSignIn />
      <LoginForm />
    </Suspense>
  );
}
