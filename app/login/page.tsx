import { Suspense } from 'react';
import { LoginForm } from '@/components/session/login-form';

export default function LoginPage() {
  return (
    <Suspense fallback={<p role="status">Loading…</p>}>
      <LoginForm />
    </Suspense>
  );
}
